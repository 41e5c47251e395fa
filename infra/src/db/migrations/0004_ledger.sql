-- Double-entry ledger in integer minor units. Every transfer's entries sum to zero; a user
-- account can never go below zero (the CHECK turns an overdraft into an error, not a debt).
CREATE TABLE ledger_accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner_id bigint REFERENCES users (id),
  kind text NOT NULL CHECK (kind IN (
    'available', 'in_orders', 'withdraw_hold', 'savings_pending', 'savings_confirmed',
    'house_trading', 'house_interest', 'world')),
  balance bigint NOT NULL DEFAULT 0,
  CONSTRAINT user_balance_not_negative CHECK (owner_id IS NULL OR balance >= 0),
  CONSTRAINT house_kinds CHECK ((owner_id IS NULL) = (kind IN ('house_trading', 'house_interest', 'world')))
);
CREATE UNIQUE INDEX ledger_accounts_user_kind ON ledger_accounts (owner_id, kind) WHERE owner_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_house_kind ON ledger_accounts (kind) WHERE owner_id IS NULL;
INSERT INTO ledger_accounts (owner_id, kind) VALUES (NULL, 'house_trading'), (NULL, 'house_interest'), (NULL, 'world');

CREATE TABLE transfers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  user_id bigint REFERENCES users (id),
  ref text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transfers_user ON transfers (user_id, id);

CREATE TABLE entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transfer_id bigint NOT NULL REFERENCES transfers (id),
  account_id bigint NOT NULL REFERENCES ledger_accounts (id),
  amount bigint NOT NULL CHECK (amount <> 0),
  balance_after bigint NOT NULL
);
CREATE INDEX entries_account ON entries (account_id, id);
CREATE INDEX entries_transfer ON entries (transfer_id);

-- Idempotency-Key records: the first answer to a money-moving POST, replayed for 24 h or more.
CREATE TABLE idempotency_keys (
  user_id bigint NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
