-- entries_transfer (transfer_id) cost an index entry per ledger entry written (25 000 for 10 000
-- settlements) and served no read of the app: entries are read by account (entries_account) and
-- joined to their transfer through the transfer's primary key. The ledger check's "transfers
-- without entries" reads both tables whole anyway (a hash anti-join), and the foreign key it
-- served for deletes of transfers is gone with the deletes themselves (migration 0024).
DROP INDEX entries_transfer;
