-- Savings balance (issue 8). The money itself lives in the ledger (savings_pending and
-- savings_confirmed accounts); these tables hold the daily limits, the records and the job's days.

-- One row per user who ever transferred in. Every savings movement of a user locks this row first
-- (transfers FOR UPDATE, the daily job FOR UPDATE SKIP LOCKED), which serialises the daily-limit
-- counts and the cut-offs. `next_day` is the first platform day whose cut-off is not applied yet.
CREATE TABLE savings_accounts (
  user_id bigint PRIMARY KEY REFERENCES users (id),
  next_day date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX savings_accounts_due ON savings_accounts (next_day);

-- What the user sees in the details: transfers in and out, and income. `day` is the platform day
-- (daily limits count transfers of one day); `at_ms` the platform clock's time (income: the cut-off).
CREATE TABLE savings_records (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  kind text NOT NULL CHECK (kind IN ('in', 'out', 'income')),
  amount bigint NOT NULL CHECK (amount > 0),
  day date NOT NULL,
  at_ms bigint NOT NULL,
  transfer_id bigint NOT NULL REFERENCES transfers (id)
);
CREATE INDEX savings_records_user ON savings_records (user_id, id DESC);
CREATE INDEX savings_records_user_day ON savings_records (user_id, day, kind);

-- The daily job, exactly once per user and platform day: written in the same transaction as that
-- day's cut-off movements (pending → confirmed, then income). A second write of a day is a
-- primary-key violation that rolls the whole attempt back.
CREATE TABLE savings_days (
  user_id bigint NOT NULL REFERENCES users (id),
  day date NOT NULL,
  confirmed_amount bigint NOT NULL CHECK (confirmed_amount >= 0),
  base bigint NOT NULL CHECK (base >= 0),
  income bigint NOT NULL CHECK (income >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, day)
);

-- The cut-off transfers carry `savings-confirm:<user>:<day>` / `savings-income:<user>:<day>`:
-- a second payment of one day is impossible in the ledger itself, too.
CREATE UNIQUE INDEX transfers_savings_day ON transfers (ref) WHERE kind IN ('savings_confirm', 'savings_income');
