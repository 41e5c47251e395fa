-- Issue 20: named operators with roles and a second factor, their own sessions, an append-only
-- audit log of what operators do, and frozen user accounts.

CREATE TABLE operators (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('reviewer', 'support', 'admin')),
  password_hash text NOT NULL,
  -- Base32 TOTP secret (RFC 6238); required: every operator signs in with a code.
  totp_secret text NOT NULL,
  -- The last 30 s time step a code was accepted for: a code works once (no replay).
  totp_last_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  disabled_at timestamptz
);
CREATE UNIQUE INDEX operators_name_key ON operators (lower(name));

CREATE TABLE operator_sessions (
  token_hash text PRIMARY KEY,
  operator_id bigint NOT NULL REFERENCES operators (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);

-- Who did what to what, from where; `operator_id` is null for the service token (the CLI).
CREATE TABLE ops_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  operator_id bigint REFERENCES operators (id),
  operator_name text NOT NULL,
  role text NOT NULL,
  action text NOT NULL,
  target text,
  before jsonb,
  after jsonb,
  reason text,
  address text,
  status integer NOT NULL
);
CREATE INDEX ops_audit_at ON ops_audit (at DESC);
CREATE INDEX ops_audit_operator ON ops_audit (operator_id, at DESC);

-- Append-only: the database itself refuses to change or remove a row.
CREATE FUNCTION ops_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ops_audit is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER ops_audit_no_update_delete BEFORE UPDATE OR DELETE ON ops_audit
  FOR EACH ROW EXECUTE FUNCTION ops_audit_append_only();
CREATE TRIGGER ops_audit_no_truncate BEFORE TRUNCATE ON ops_audit
  FOR EACH STATEMENT EXECUTE FUNCTION ops_audit_append_only();

-- A frozen user may read their account but cannot log in, trade or withdraw.
ALTER TABLE users ADD COLUMN frozen_at timestamptz;
ALTER TABLE users ADD COLUMN frozen_reason text;

-- The operator dashboard's recent placements and today's settled result, polled every few seconds.
CREATE INDEX orders_created ON orders (created_at);
CREATE INDEX orders_settled ON orders (settled_at) WHERE settled_at IS NOT NULL;
