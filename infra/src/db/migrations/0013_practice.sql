-- Practice money (issue 19): every user's practice balance lives in accounts of its own
-- (practice_available, practice_in_orders) against the house's practice account. Each ledger
-- account and each transfer has a mode, real or practice, and the database refuses an entry whose
-- account is of another mode than its transfer: a transfer can never mix the two, whatever the
-- code that writes it.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts DROP CONSTRAINT house_kinds;
ALTER TABLE ledger_accounts
  ADD CONSTRAINT ledger_accounts_kind_check CHECK (kind IN (
    'available', 'in_orders', 'withdraw_hold', 'savings_pending', 'savings_confirmed',
    'practice_available', 'practice_in_orders',
    'house_trading', 'house_interest', 'world', 'house_practice')),
  ADD CONSTRAINT house_kinds
    CHECK ((owner_id IS NULL) = (kind IN ('house_trading', 'house_interest', 'world', 'house_practice'))),
  ADD COLUMN mode text GENERATED ALWAYS AS (
    CASE WHEN kind IN ('practice_available', 'practice_in_orders', 'house_practice')
      THEN 'practice' ELSE 'real' END) STORED;
INSERT INTO ledger_accounts (owner_id, kind) VALUES (NULL, 'house_practice');

ALTER TABLE transfers
  ADD COLUMN mode text NOT NULL DEFAULT 'real' CHECK (mode IN ('real', 'practice'));

-- Every entry's account is of its transfer's mode. Checked at the end of the writing statement,
-- so a transfer and its entries may be written by one statement (ledger.ts does).
CREATE FUNCTION ledger_entry_same_mode() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  transfer_mode text;
  account_mode text;
BEGIN
  SELECT mode INTO transfer_mode FROM transfers WHERE id = NEW.transfer_id;
  SELECT mode INTO account_mode FROM ledger_accounts WHERE id = NEW.account_id;
  IF transfer_mode IS DISTINCT FROM account_mode THEN
    RAISE EXCEPTION 'ledger: transfer % is % money, account % is %: practice and real money never mix',
      NEW.transfer_id, transfer_mode, NEW.account_id, account_mode
      USING ERRCODE = 'P0019';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER entries_same_mode AFTER INSERT OR UPDATE ON entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entry_same_mode();

-- What would let a transfer change sides after its entries are written: refused.
CREATE FUNCTION ledger_mode_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger: the mode of % % is fixed', TG_TABLE_NAME, OLD.id USING ERRCODE = 'P0019';
END $$;
CREATE TRIGGER transfers_mode_fixed BEFORE UPDATE OF mode ON transfers
  FOR EACH ROW WHEN (OLD.mode IS DISTINCT FROM NEW.mode) EXECUTE FUNCTION ledger_mode_fixed();
CREATE TRIGGER ledger_accounts_kind_fixed BEFORE UPDATE OF kind, owner_id ON ledger_accounts
  FOR EACH ROW WHEN (OLD.kind IS DISTINCT FROM NEW.kind OR OLD.owner_id IS DISTINCT FROM NEW.owner_id)
  EXECUTE FUNCTION ledger_mode_fixed();

-- A user's practice balance is opened once (the first time it is needed), funded with
-- PRACTICE_BALANCE from the house's practice account.
CREATE TABLE practice_accounts (
  user_id bigint PRIMARY KEY REFERENCES users (id),
  opened_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE orders ADD COLUMN mode text NOT NULL DEFAULT 'real' CHECK (mode IN ('real', 'practice'));
CREATE INDEX orders_user_mode ON orders (user_id, mode, id DESC);
CREATE INDEX orders_open_mode ON orders (mode, product_id) WHERE status = 'open';
