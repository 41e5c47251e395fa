-- Two-factor sign-in for traders (DECISIONS, Two-factor sign-in): a TOTP secret per user, pending
-- until a first code confirms it (enabled_at), with the last time step a code was accepted at,
-- so a code is never accepted twice (nor an older one of its window); ten recovery codes, kept
-- as hashes, each usable once; and the devices a code signed in on, by the hash of the token the
-- device keeps, which then sign in with the password alone.
CREATE TABLE user_two_factor (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret text NOT NULL,
  enabled_at timestamptz,
  last_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_recovery_codes (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

CREATE TABLE trusted_devices (
  token_hash text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX trusted_devices_user ON trusted_devices (user_id);

-- The security page's sessions: the device and browser (user agent), the address, and the device
-- token's hash the session signed in with (a session of a device two-factor forgets can be told).
ALTER TABLE sessions ADD COLUMN user_agent text;
ALTER TABLE sessions ADD COLUMN ip text;
ALTER TABLE sessions ADD COLUMN device_hash text;

-- The anti-phishing phrase a user sets: shown in every security message and, to a device that
-- signed in to the account before, on the sign-in page.
ALTER TABLE users ADD COLUMN anti_phishing text;

-- A newly bound withdrawal account receives withdrawals from this instant (the hold); accounts
-- bound before the hold existed are usable at once.
ALTER TABLE withdrawal_accounts ADD COLUMN usable_at timestamptz NOT NULL DEFAULT now();
UPDATE withdrawal_accounts SET usable_at = created_at;
