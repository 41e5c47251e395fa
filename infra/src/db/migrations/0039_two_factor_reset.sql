-- The support reset of two-factor sign-in for a user who lost both the authenticator and the
-- recovery codes (DECISIONS, Two-factor reset by support; docs/OPERATIONS.md): requested by one
-- operator with a reason and a ticket, approved by another (an admin), effective a delay after
-- the approval, announced to the user, cancelled by the user, a sign-in with a code or an
-- operator. `two_factor_since` is the enrolment it resets: a newer one is never touched. A row is
-- pending until it ends (`ended_at`, with its outcome); at most one is pending per user.
CREATE TABLE two_factor_resets (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  two_factor_since timestamptz NOT NULL,
  reason text NOT NULL,
  ticket text NOT NULL,
  requested_by bigint NOT NULL REFERENCES operators (id),
  requested_by_name text NOT NULL,
  requested_at timestamptz NOT NULL,
  approved_by bigint REFERENCES operators (id),
  approved_by_name text,
  approved_at timestamptz,
  effective_at timestamptz,
  ended_at timestamptz,
  outcome text CHECK (outcome IN ('applied', 'cancelled_by_user', 'cancelled_by_sign_in', 'cancelled_by_operator')),
  ended_by_name text,
  CHECK ((ended_at IS NULL) = (outcome IS NULL)),
  CHECK (approved_by IS NULL OR approved_by <> requested_by)
);

CREATE UNIQUE INDEX two_factor_resets_pending ON two_factor_resets (user_id) WHERE ended_at IS NULL;
CREATE INDEX two_factor_resets_due ON two_factor_resets (effective_at)
  WHERE ended_at IS NULL AND effective_at IS NOT NULL;
