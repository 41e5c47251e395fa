-- Early close ("sell", docs/FAIRNESS.md): an open order may be closed before expiry at a value
-- computed from public inputs. A sold order keeps its sale tick in exit_* (the first tick
-- recorded after the sell was accepted) and its payout (the value); these columns hold the other
-- inputs, so the audit and verify:orders recompute it: when the sell was accepted (database
-- clock, epoch ms), σ as the product published it, and the spread.
ALTER TABLE orders ADD COLUMN sell_requested_ms bigint;
ALTER TABLE orders ADD COLUMN sell_annual_vol double precision;
ALTER TABLE orders ADD COLUMN sell_spread_bp integer;
ALTER TABLE orders DROP CONSTRAINT orders_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_status_check
  CHECK (status IN ('open', 'won', 'lost', 'draw', 'void', 'sold'));
-- A sale is whole: all its inputs, its tick and its value, on a sold order only.
ALTER TABLE orders ADD CONSTRAINT orders_sale_whole CHECK (
  (status = 'sold') = (sell_requested_ms IS NOT NULL)
  AND (sell_requested_ms IS NULL) = (sell_annual_vol IS NULL)
  AND (sell_requested_ms IS NULL) = (sell_spread_bp IS NULL)
  AND (status <> 'sold' OR (exit_seq IS NOT NULL AND payout IS NOT NULL AND exit_ts < expires_ms))
);
-- One closing transfer per order, whichever way it closed: a sale joins the settlement's kinds.
DROP INDEX transfers_order_settlement;
CREATE UNIQUE INDEX transfers_order_settlement ON transfers (ref)
  WHERE kind IN ('order_payout', 'order_refund', 'order_loss', 'order_sale');
