-- The hourly pruning of old Idempotency-Key records (platform/idempotency.ts) finds them by age.
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
