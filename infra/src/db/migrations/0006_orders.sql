CREATE TABLE orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  product_id text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('up', 'down')),
  amount bigint NOT NULL CHECK (amount > 0),
  duration integer NOT NULL CHECK (duration > 0),
  -- Earnings rate in basis points (8500 = 85 %), exact integer arithmetic for payouts.
  rate_bp integer NOT NULL CHECK (rate_bp >= 0),
  entry_seq bigint NOT NULL,
  entry_ts bigint NOT NULL,
  entry_price bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Acceptance time + duration, both from the database clock; expires_ms is the same instant in epoch ms.
  expires_at timestamptz NOT NULL,
  expires_ms bigint NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'won', 'lost', 'draw', 'void')),
  exit_seq bigint,
  exit_ts bigint,
  exit_price bigint,
  payout bigint,
  settled_at timestamptz,
  void_reason text,
  CHECK ((status = 'open') = (settled_at IS NULL))
);
CREATE INDEX orders_due ON orders (expires_at) WHERE status = 'open';
CREATE INDEX orders_user ON orders (user_id, id DESC);

-- A second settlement of one order is impossible: its one settlement transfer has a unique ref.
CREATE UNIQUE INDEX transfers_order_settlement ON transfers (ref) WHERE kind IN ('order_payout', 'order_refund', 'order_loss');
