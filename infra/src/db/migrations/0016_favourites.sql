-- Issue 18: the products a user marks as favourites, kept on the server so every device of the
-- user shows them first. A product that leaves the catalogue is simply not listed.
CREATE TABLE favourites (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, product_id)
);
