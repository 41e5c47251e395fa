-- A placement's Idempotency-Key is recorded with its order, in the statement that writes the
-- order (DECISIONS 64): `order_id` links the key to it, and its answer is the order as placed,
-- built again from the order row when the request is repeated, not a stored body. Other keys
-- (a placement written alone, deposits, withdrawals) keep their stored answer in `body`.
ALTER TABLE idempotency_keys ADD COLUMN order_id bigint;
ALTER TABLE idempotency_keys
  ADD CONSTRAINT idempotency_keys_answer CHECK (order_id IS NULL OR (body IS NULL AND status = 201));
