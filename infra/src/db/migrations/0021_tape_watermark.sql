-- How far the tape is known to be complete (epoch ms): the leading simulator's tape writer has
-- written every tick with ts ≤ through_ms, and none with a smaller ts will ever be written. It
-- advances in the transaction that writes the ticks (fenced like them), only forward. The
-- settlement worker reads it to know that an expiry's last tick is final without waiting for the
-- next tick (at 2 ticks a second, up to 0.75 s): the exit stays the last tick at or before expiry.
CREATE TABLE tape_watermark (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  through_ms bigint NOT NULL
);
INSERT INTO tape_watermark (one, through_ms) VALUES (true, 0);
