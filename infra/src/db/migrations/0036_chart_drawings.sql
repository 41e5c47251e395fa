-- Chart drawings: a user's horizontal lines (one point) and trend lines (two points, the earlier
-- first) over a product's chart, kept on the server so every device of the user shows them
-- (DECISIONS, Chart drawings, kept on the server per user and product). Points are instants in
-- epoch ms and positive prices; the checks hold the shape even against a faulty caller.
CREATE TABLE chart_drawings (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('hline', 'trend')),
  t1 bigint NOT NULL,
  p1 numeric NOT NULL CHECK (p1 > 0),
  t2 bigint,
  p2 numeric CHECK (p2 > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (
    (kind = 'hline' AND t2 IS NULL AND p2 IS NULL)
    OR (kind = 'trend' AND t2 IS NOT NULL AND p2 IS NOT NULL AND t2 > t1)
  )
);

-- One drawing of a kind at the same points per user and product (a repeated request draws
-- nothing more); also the index a product's list is read by.
CREATE UNIQUE INDEX chart_drawings_same
  ON chart_drawings (user_id, product_id, kind, t1, p1, (coalesce(t2, 0)), (coalesce(p2, 0)));
