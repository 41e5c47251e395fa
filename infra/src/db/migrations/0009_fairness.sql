-- The provably fair live feed (docs/FAIRNESS.md): one row per product and period. The commitment
-- (SHA-256 of the secret) is public from the moment the row exists, before any tick of the
-- period is made; the secret is served only once `revealed_at` is set, after the period has
-- ended and every order that could depend on it has settled.
CREATE TABLE fairness_periods (
  product_id text NOT NULL,
  period_start bigint NOT NULL,
  period_end bigint NOT NULL CHECK (period_end > period_start),
  commitment text NOT NULL CHECK (commitment ~ '^[0-9a-f]{64}$'),
  secret text NOT NULL CHECK (secret ~ '^[0-9a-f]{64}$'),
  -- The published model parameters the period's ticks are computed with.
  model jsonb NOT NULL,
  -- When the commitment was stored (simulator clock, epoch ms): before the period's first tick.
  committed_at bigint NOT NULL,
  -- Where the period's ticks start from, written with its first tick: the last tick before it
  -- and the model's state after that tick (two doubles as exact decimal strings).
  start_seq bigint,
  start_ts bigint,
  start_log_price text,
  start_log_vol text,
  revealed_at timestamptz,
  PRIMARY KEY (product_id, period_start),
  CHECK ((start_seq IS NULL) = (start_log_price IS NULL) AND (start_seq IS NULL) = (start_log_vol IS NULL))
);
CREATE INDEX fairness_periods_unrevealed ON fairness_periods (period_end) WHERE revealed_at IS NULL;

-- What was committed to never changes, a period's start, once written, stays, and no period is
-- deleted (they are small and kept for good): a bug cannot rewrite history. Tampering with the
-- database directly is what the published commitments and `npm run verify:tape` catch.
CREATE FUNCTION fairness_periods_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'fairness_periods: periods are kept' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.product_id <> OLD.product_id OR NEW.period_start <> OLD.period_start
     OR NEW.period_end <> OLD.period_end OR NEW.commitment <> OLD.commitment
     OR NEW.secret <> OLD.secret OR NEW.model <> OLD.model OR NEW.committed_at <> OLD.committed_at
     OR (OLD.start_seq IS NOT NULL AND (NEW.start_seq IS DISTINCT FROM OLD.start_seq
         OR NEW.start_ts IS DISTINCT FROM OLD.start_ts
         OR NEW.start_log_price IS DISTINCT FROM OLD.start_log_price
         OR NEW.start_log_vol IS DISTINCT FROM OLD.start_log_vol))
     OR (OLD.revealed_at IS NOT NULL AND NEW.revealed_at IS DISTINCT FROM OLD.revealed_at) THEN
    RAISE EXCEPTION 'fairness_periods: a commitment and its period start cannot change'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER fairness_periods_immutable BEFORE UPDATE OR DELETE ON fairness_periods
  FOR EACH ROW EXECUTE FUNCTION fairness_periods_immutable();
