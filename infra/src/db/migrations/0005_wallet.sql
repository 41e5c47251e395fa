-- Money in and out (issue 5) and identity checks (issue 7). Amounts are bigint minor units.

-- Uploaded images. The id is random and server-generated; it is also the file's name under
-- DATA_DIR/uploads, so nothing a client sends ever becomes part of a path.
CREATE TABLE uploads (
  id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{22}$'),
  owner_id bigint NOT NULL REFERENCES users (id),
  mime text NOT NULL CHECK (mime IN ('image/jpeg', 'image/png', 'image/webp')),
  size integer NOT NULL CHECK (size > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploads_owner ON uploads (owner_id);

-- A deposit is a claim the user makes; only an operator's approval moves money (ledger ref
-- `deposit:<id>`). `amount` is what will be credited; USDT deposits keep the quantity and rate.
CREATE TABLE deposits (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  channel text NOT NULL CHECK (channel IN ('bank', 'usdt-trc20', 'usdt-erc20')),
  amount bigint NOT NULL CHECK (amount > 0),
  quantity bigint CHECK (quantity > 0),
  rate text,
  payer_bank text,
  payer_card text,
  payer_name text,
  remark text,
  screenshot_id text NOT NULL REFERENCES uploads (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  reviewed_at timestamptz,
  CONSTRAINT deposit_reviewed CHECK ((status = 'pending') = (reviewed_at IS NULL)),
  CONSTRAINT deposit_channel_fields CHECK (
    (channel = 'bank' AND payer_bank IS NOT NULL AND payer_card IS NOT NULL AND payer_name IS NOT NULL)
    OR (channel <> 'bank' AND quantity IS NOT NULL AND rate IS NOT NULL))
);
CREATE INDEX deposits_user ON deposits (user_id, id);
CREATE INDEX deposits_status ON deposits (status, id);

-- Where withdrawals go. At most one bank card and one coin address per user: the unique index
-- makes two concurrent binds of one type end with exactly one row.
CREATE TABLE withdrawal_accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  type text NOT NULL CHECK (type IN ('bank', 'coin')),
  holder_name text,
  nationality text,
  bank_name text,
  card_number text,
  bank_address text,
  network text CHECK (network IN ('TRC20', 'ERC20')),
  address text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT withdrawal_account_fields CHECK (
    (type = 'bank' AND holder_name IS NOT NULL AND nationality IS NOT NULL AND bank_name IS NOT NULL
      AND card_number IS NOT NULL AND network IS NULL AND address IS NULL)
    OR (type = 'coin' AND network IS NOT NULL AND address IS NOT NULL AND card_number IS NULL))
);
CREATE UNIQUE INDEX withdrawal_accounts_one_per_type ON withdrawal_accounts (user_id, type);

-- The amount leaves `available` for `withdraw_hold` when the row is written (same transaction);
-- review pays it out (success) or returns it (failed, reason kept).
CREATE TABLE withdrawals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  account_id bigint NOT NULL REFERENCES withdrawal_accounts (id),
  amount bigint NOT NULL CHECK (amount > 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'success', 'failed')),
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  reviewed_at timestamptz,
  CONSTRAINT withdrawal_reviewed CHECK ((status = 'pending') = (reviewed_at IS NULL))
);
CREATE INDEX withdrawals_user ON withdrawals (user_id, id);
CREATE INDEX withdrawals_status ON withdrawals (status, id);

-- Identity checks. The latest row is the user's state; a rejected one may be followed by another.
CREATE TABLE kyc_submissions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  name text NOT NULL,
  id_number text NOT NULL,
  nationality text NOT NULL,
  front_id text NOT NULL REFERENCES uploads (id),
  back_id text NOT NULL REFERENCES uploads (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'rejected')),
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  reviewed_at timestamptz,
  CONSTRAINT kyc_reviewed CHECK ((status = 'pending') = (reviewed_at IS NULL))
);
CREATE INDEX kyc_submissions_user ON kyc_submissions (user_id, id);
CREATE INDEX kyc_submissions_status ON kyc_submissions (status, id);
-- At most one submission per user that is under review or verified: two concurrent
-- submissions cannot both be accepted.
CREATE UNIQUE INDEX kyc_submissions_one_open ON kyc_submissions (user_id)
  WHERE status IN ('pending', 'verified');
