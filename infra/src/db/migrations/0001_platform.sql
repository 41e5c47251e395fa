-- Small key/value settings the platform keeps between starts (operator token hash, seed markers).
CREATE TABLE app_meta (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
