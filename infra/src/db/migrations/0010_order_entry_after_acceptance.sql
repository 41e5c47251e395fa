-- The entry is the first tick recorded after the order is accepted (issue 16): the settlement
-- worker fills it in once that tick is on the tape, so an open order may have none yet, and an
-- order void for want of one (NO_ENTRY_TICK) never has one.
ALTER TABLE orders
  ALTER COLUMN entry_seq DROP NOT NULL,
  ALTER COLUMN entry_ts DROP NOT NULL,
  ALTER COLUMN entry_price DROP NOT NULL,
  -- The acceptance time (created_at, the database clock at insert) in epoch ms, as tick times are.
  ADD COLUMN accepted_ms bigint;
UPDATE orders SET accepted_ms = floor(extract(epoch FROM created_at) * 1000)::bigint;
ALTER TABLE orders
  ALTER COLUMN accepted_ms SET NOT NULL,
  ADD CONSTRAINT orders_entry_whole
    CHECK ((entry_seq IS NULL) = (entry_ts IS NULL) AND (entry_ts IS NULL) = (entry_price IS NULL)),
  -- Only an open order waits for its entry; only a void one may end without.
  ADD CONSTRAINT orders_entry_unless_void
    CHECK (entry_seq IS NOT NULL OR status IN ('open', 'void'));

-- The worker's claim of orders waiting for their entry tick.
CREATE INDEX orders_awaiting_entry ON orders (created_at) WHERE status = 'open' AND entry_seq IS NULL;
