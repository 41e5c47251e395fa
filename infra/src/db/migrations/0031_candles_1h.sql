-- Hourly candles: the roll-up of `candles` by hour, so the long charts (1h, 4h, 1d) read one row
-- per hour instead of sixty and reach back months within a bounded read (DECISIONS.md, Hourly
-- candles). A row is exact: the open of the hour's first row in `candles`, the highest high, the
-- lowest low, the close of its last row, and the sums of v, a and n. Only complete hours are
-- stored; the hour being traded is read from `candles`. The simulator keeps it: its tape writer
-- rolls an hour up from its rows once the hour is over, in the transaction that writes the hour's
-- last minutes, and its start rolls up the hours over since the newest one stored.
CREATE TABLE candles_1h (
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

-- The hours the tape already holds, up to the hour of its watermark: the tape is complete through
-- the watermark, so every earlier hour is over (by the simulator's clock, which wrote them).
-- The watermark's own hour, and anything a simulator writes later, the simulator rolls up.
INSERT INTO candles_1h (product_id, t, o, h, l, c, v, a, n)
SELECT product_id, t - t % 3600000, (min(ARRAY[t, o]))[2], max(h), min(l), (max(ARRAY[t, c]))[2],
       sum(v)::bigint, sum(a)::bigint, sum(n)::int
FROM candles
WHERE t < (SELECT through_ms + 1 - (through_ms + 1) % 3600000 FROM tape_watermark)
GROUP BY product_id, t - t % 3600000;
