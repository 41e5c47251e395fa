-- Every entry still refers to a transfer and an account that exist, for ever; the check is now
-- made once per writing statement by the trigger that already reads both rows, instead of by two
-- foreign keys that each ran a query per entry (with a FOR KEY SHARE lock on the transfer just
-- written, a WAL record each). Settling 10 000 orders writes 25 000 entries: those 50 000
-- checks were about a tenth of the database's work.
--
-- What the foreign keys guaranteed, and what guarantees it now:
-- - an entry's transfer and account exist when it is written: entries_same_mode_insert and
--   entries_same_mode_update (migration 0020) look up both for every entry written, by primary
--   key, and now refuse an entry whose transfer or account is not there (before, a missing pair
--   compared NULL with NULL and passed);
-- - they go on existing: transfers and ledger_accounts refuse DELETE and TRUNCATE, and a change
--   of their id (nothing deleted or renumbered them before: the ledger is append-only);
-- - concurrency: a transfer or account is only found once committed (or written by the same
--   transaction), and a committed one can no longer go away, so no lock is needed to keep it.
CREATE OR REPLACE FUNCTION ledger_entries_same_mode() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  SELECT x.transfer_id, x.transfer_mode, x.account_id, x.account_mode INTO bad
    FROM (SELECT e.transfer_id, e.account_id,
                 (SELECT t.mode FROM transfers t WHERE t.id = e.transfer_id) AS transfer_mode,
                 (SELECT a.mode FROM ledger_accounts a WHERE a.id = e.account_id) AS account_mode
            FROM written e) x
   -- NULL (a row missing) or false (modes differ); each lookup named once, so it runs once.
   WHERE (x.transfer_mode = x.account_mode) IS NOT TRUE
   LIMIT 1;
  IF FOUND AND (bad.transfer_mode IS NULL OR bad.account_mode IS NULL) THEN
    RAISE EXCEPTION 'ledger: entry of transfer % on account %: no such %', bad.transfer_id,
      bad.account_id, CASE WHEN bad.transfer_mode IS NULL THEN 'transfer' ELSE 'account' END
      USING ERRCODE = '23503';
  END IF;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger: transfer % is % money, account % is %: practice and real money never mix',
      bad.transfer_id, bad.transfer_mode, bad.account_id, bad.account_mode
      USING ERRCODE = 'P0019';
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger: % is append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'P0019';
END $$;
CREATE TRIGGER transfers_no_delete BEFORE DELETE ON transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER transfers_no_truncate BEFORE TRUNCATE ON transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER transfers_id_fixed BEFORE UPDATE OF id ON transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_accounts_no_delete BEFORE DELETE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_accounts_id_fixed BEFORE UPDATE OF id ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

ALTER TABLE entries DROP CONSTRAINT entries_transfer_id_fkey;
ALTER TABLE entries DROP CONSTRAINT entries_account_id_fkey;
