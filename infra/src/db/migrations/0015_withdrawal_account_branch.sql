-- Issue 24: a bank withdrawal account names its branch where the holder's country addresses
-- transfers to one (Japan: 支店名 or 支店番号). Null elsewhere and on accounts bound before.
ALTER TABLE withdrawal_accounts ADD COLUMN branch text;
