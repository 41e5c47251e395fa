CREATE TABLE users (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account text NOT NULL,
  phone text NOT NULL,
  nickname text NOT NULL,
  password_hash text NOT NULL,
  trade_password_hash text NOT NULL,
  invite_code text NOT NULL UNIQUE,
  invited_with text NOT NULL,
  credit_score integer NOT NULL DEFAULT 100,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Accounts are unique whatever their case: "Alice" and "alice" are one account.
CREATE UNIQUE INDEX users_account_lower ON users (lower(account));

-- Codes that open an account: every user's own, and those an operator issued (owner_id null).
CREATE TABLE invite_codes (
  code text PRIMARY KEY,
  owner_id bigint REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Session tokens are stored as SHA-256 hashes; the token itself exists only on the client.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user ON sessions (user_id);
