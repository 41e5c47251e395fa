-- Money screens that feel safe (DECISIONS.md, Deposit transaction ids; Resubmitting a deposit;
-- Withdrawal fee).
--
-- A USDT deposit names its on-chain transaction id (lower-case hex, without 0x for TRC20, with it
-- for ERC20); its screenshot becomes optional. One transaction id backs at most one deposit that
-- is under review or approved: a rejected one frees it for a corrected claim.
ALTER TABLE deposits
  ADD COLUMN tx_id text CHECK (tx_id ~ '^(0x)?[0-9a-f]{64}$'),
  ADD COLUMN resubmitted_from bigint REFERENCES deposits (id),
  ALTER COLUMN screenshot_id DROP NOT NULL,
  ADD CONSTRAINT deposit_evidence CHECK (
    (channel = 'bank' AND screenshot_id IS NOT NULL) OR (channel <> 'bank' AND tx_id IS NOT NULL));
CREATE UNIQUE INDEX deposits_tx_id_live ON deposits (tx_id)
  WHERE tx_id IS NOT NULL AND status IN ('pending', 'approved');
-- A rejected deposit is resubmitted at most once.
CREATE UNIQUE INDEX deposits_resubmitted_once ON deposits (resubmitted_from)
  WHERE resubmitted_from IS NOT NULL;

-- The fee of a withdrawal (minor units, part of `amount`): it moves to the house's fee account
-- when the withdrawal is asked for, and comes back with the amount when it fails.
ALTER TABLE withdrawals ADD COLUMN fee bigint NOT NULL DEFAULT 0 CHECK (fee >= 0 AND fee < amount);

ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts DROP CONSTRAINT house_kinds;
ALTER TABLE ledger_accounts
  ADD CONSTRAINT ledger_accounts_kind_check CHECK (kind IN (
    'available', 'in_orders', 'withdraw_hold', 'savings_pending', 'savings_confirmed',
    'practice_available', 'practice_in_orders',
    'house_trading', 'house_interest', 'world', 'house_practice', 'house_fees')),
  ADD CONSTRAINT house_kinds CHECK ((owner_id IS NULL) = (kind IN (
    'house_trading', 'house_interest', 'world', 'house_practice', 'house_fees')));
INSERT INTO ledger_accounts (owner_id, kind) VALUES (NULL, 'house_fees');
