-- Issue 33: who read which user's personal data, when and from where. Its own table beside
-- ops_audit (DECISIONS.md, Operator accountability): reads are many more than changes, have no
-- before, after or status, and are looked up by the user whose data was read.

CREATE TABLE ops_access_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  -- Null for the service token (the CLI, automation), named `service`.
  operator_id bigint REFERENCES operators (id),
  operator_name text NOT NULL,
  role text NOT NULL,
  -- profile: GET /api/ops/users/:id; review_context: GET /api/ops/users/:id/review-context;
  -- upload: an image served to an operator (an ID photo, a transfer screenshot).
  kind text NOT NULL CHECK (kind IN ('profile', 'review_context', 'upload')),
  -- The user whose data was read (an upload's owner).
  user_id bigint NOT NULL,
  upload_id text,
  address text NOT NULL
);
CREATE INDEX ops_access_log_user ON ops_access_log (user_id, id DESC);
CREATE INDEX ops_access_log_operator ON ops_access_log (lower(operator_name), id DESC);

-- Append-only like ops_audit: the database itself refuses to change or remove a line.
CREATE FUNCTION ops_access_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ops_access_log is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER ops_access_log_no_update_delete BEFORE UPDATE OR DELETE ON ops_access_log
  FOR EACH ROW EXECUTE FUNCTION ops_access_log_append_only();
CREATE TRIGGER ops_access_log_no_truncate BEFORE TRUNCATE ON ops_access_log
  FOR EACH STATEMENT EXECUTE FUNCTION ops_access_log_append_only();
