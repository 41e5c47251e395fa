-- Price alerts (DECISIONS, Price alerts: evaluated on the tape, fired once): a user asks to be
-- told when a product's price reaches a threshold. The server evaluates them on the recorded
-- tape: an alert fires at the first tick recorded after its creation (seq > created_seq) whose
-- price is at/above (above) or at/below (below) the threshold, exactly once: firing is one
-- conditional UPDATE (fired_at IS NULL) that records the tick it fired on.
CREATE TABLE price_alerts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('above', 'below')),
  -- Price units (price × 10^precision), as the tape's.
  threshold bigint NOT NULL CHECK (threshold > 0),
  -- The product's last tick known when the alert was created (0: none): only later ticks count.
  created_seq bigint NOT NULL CHECK (created_seq >= 0),
  -- How far the tape is known to hold no crossing for this alert (≥ created_seq): evaluation
  -- scans from here, so a long-pending alert does not rescan its whole history every pass.
  scanned_seq bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  fired_at timestamptz,
  fired_seq bigint,
  fired_ts bigint,
  fired_price bigint,
  CHECK (scanned_seq >= created_seq),
  -- A fired alert holds its whole tick; a pending one none of it.
  CHECK (
    (fired_at IS NULL) = (fired_seq IS NULL)
    AND (fired_at IS NULL) = (fired_ts IS NULL)
    AND (fired_at IS NULL) = (fired_price IS NULL)
    AND (fired_seq IS NULL OR fired_seq > created_seq)
  )
);
-- The pending alerts, as every evaluation pass reads them.
CREATE INDEX price_alerts_pending ON price_alerts (product_id, id) WHERE fired_at IS NULL;
-- A user's list (active first, then the recently fired).
CREATE INDEX price_alerts_user ON price_alerts (user_id, id);
