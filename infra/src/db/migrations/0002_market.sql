-- The price tape. Prices are integer units (price × 10^precision, precision from the catalogue);
-- quantities are integer lots. Times are epoch milliseconds, as on the wire.
CREATE TABLE ticks (
  product_id text NOT NULL,
  seq bigint NOT NULL,
  ts bigint NOT NULL,
  price bigint NOT NULL CHECK (price > 0),
  qty bigint NOT NULL CHECK (qty >= 0),
  PRIMARY KEY (product_id, seq)
);
CREATE INDEX ticks_product_ts ON ticks (product_id, ts);

-- One-minute candles, upserted while their minute is open. `a` = Σ price × qty (units × lots).
CREATE TABLE candles (
  product_id text NOT NULL,
  t bigint NOT NULL,
  o bigint NOT NULL,
  h bigint NOT NULL,
  l bigint NOT NULL,
  c bigint NOT NULL,
  v bigint NOT NULL,
  a bigint NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (product_id, t)
);

-- Operator-set maintenance; the trading calendar itself lives in code.
CREATE TABLE product_maintenance (
  product_id text PRIMARY KEY,
  opens_at bigint,
  since timestamptz NOT NULL DEFAULT now()
);
