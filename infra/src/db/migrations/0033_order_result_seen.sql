-- A settled order's result stays "unseen" until one of its user's devices acknowledges it
-- (POST /api/orders/results/seen), so a result settled while the phone was offline, asleep or
-- closed is shown when it comes back, on every device (DECISIONS.md, Unseen results). Orders
-- settled before this migration count as seen: nobody is owed a flood of old results.
ALTER TABLE orders ADD COLUMN result_seen_at timestamptz;
UPDATE orders SET result_seen_at = settled_at WHERE settled_at IS NOT NULL;
-- GET /api/orders/results/unseen: a user's unseen results, newest first, from a small index.
CREATE INDEX orders_unseen_results ON orders (user_id, settled_at DESC)
  WHERE settled_at IS NOT NULL AND result_seen_at IS NULL;
