-- Terms and risk consent at registration (DECISIONS.md, Terms consent): the version of the terms
-- of service and risk disclosure a user accepted, and when. Accounts opened before consent was
-- recorded keep NULL in both: nothing is invented for them.
ALTER TABLE users ADD COLUMN terms_version text;
ALTER TABLE users ADD COLUMN terms_accepted_at timestamptz;
