-- Duplicate identities (issue 16): the ID number as compared between accounts, so that an
-- operator sees the other accounts holding the same one. Upper case, spaces and dashes dropped;
-- a mainland China 15-digit number (issued before 1999) is written as the 18-digit number it
-- became (the century 19 inserted after the area code, the ISO 7064 MOD 11-2 check character
-- appended), so a person's old and new numbers compare equal.
CREATE FUNCTION kyc_id_number_key(id_number text, nationality text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT AS $$
  SELECT CASE
    WHEN nationality = 'CN' AND n ~ '^[0-9]{15}$' THEN
      b || substr('10X98765432', 1 + (
        SELECT sum(substr(b, i, 1)::int * w[i]) FROM generate_series(1, 17) AS i
      )::int % 11, 1)
    ELSE n
  END
  FROM (SELECT upper(regexp_replace(id_number, '[[:space:]-]', '', 'g')) AS n) AS x,
  LATERAL (
    SELECT substr(n, 1, 6) || '19' || substr(n, 7) AS b,
      ARRAY[7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] AS w
  ) AS y
$$;

ALTER TABLE kyc_submissions ADD COLUMN id_number_key text
  GENERATED ALWAYS AS (kyc_id_number_key(id_number, nationality)) STORED;
-- Only submissions under review or verified are ever looked up by it.
CREATE INDEX kyc_submissions_id_number_key ON kyc_submissions (id_number_key)
  WHERE status IN ('pending', 'verified');
