-- Expiry at a clock time (docs/PRODUCT.md): an order may end at the end of this minute or of the
-- next one instead of after a duration. `expiry` names which (NULL: a duration order, whose
-- expiry is acceptance + duration). A clock-time order's expiry is a whole minute at least 30 s
-- after acceptance (both on the database clock), and its duration is the whole seconds between.
ALTER TABLE orders ADD COLUMN expiry text CHECK (expiry IN ('minute_end', 'next_minute_end'));
ALTER TABLE orders ADD CONSTRAINT orders_clock_expiry CHECK (
  expiry IS NULL OR (
    expires_ms % 60000 = 0
    AND expires_ms - accepted_ms >= 30000
    AND duration = (expires_ms - accepted_ms) / 1000
  )
);
