-- transfers.user_id and messages.user_id no longer reference users. Every settled order writes one
-- transfer and (real money) one message, and each of those foreign keys cost a check per row: a
-- lookup of the user and a FOR KEY SHARE lock on the user's row (20 000 checks for 10 000
-- settlements, about a tenth of the database's work settling them).
--
-- What the keys guarded stays guarded:
-- - users are never deleted: no code deletes a user, and every user who has a transfer or a
--   message also has rows that still reference users (ledger_accounts.owner_id: a transfer with a
--   user moves that user's accounts; orders.user_id, sessions.user_id), so a DELETE of such a user
--   still fails on those keys;
-- - the ids written come from rows that reference users themselves (the order being settled, the
--   session's user, the reviewed request), read in the writing transaction.
-- The money itself is unchanged: entries still reference their transfer and account, the balance
-- CHECK and the unique settlement ref index stay.
ALTER TABLE transfers DROP CONSTRAINT transfers_user_id_fkey;
ALTER TABLE messages DROP CONSTRAINT messages_user_id_fkey;
