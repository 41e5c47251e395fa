-- USDT deposits by address (docs/DECISIONS.md, USDT deposits by address).
--
-- Each user receives USDT on addresses of their own, one per network, derived from the
-- operator's extended public keys at index = user id and assigned once.
CREATE TABLE deposit_addresses (
  user_id bigint NOT NULL REFERENCES users (id),
  network text NOT NULL CHECK (network IN ('ERC20', 'TRC20')),
  -- ERC20: 0x and 40 lower-case hex digits; TRC20: base58check (T…).
  address text NOT NULL,
  derivation_index bigint NOT NULL CHECK (derivation_index >= 0 AND derivation_index < 2147483648),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, network),
  UNIQUE (network, address)
);

-- Where each network's watcher has read the chain to: every block before `next_block` is final
-- (it had its confirmations when read, and its transfers were credited in the same transaction),
-- so a restart goes on from `next_block`. `head` is the newest block the node reported then.
CREATE TABLE chain_cursors (
  network text PRIMARY KEY CHECK (network IN ('ERC20', 'TRC20')),
  next_block bigint NOT NULL CHECK (next_block >= 0),
  head bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One active watcher per network (the simulator's lease, one row per network).
CREATE TABLE watcher_lease (
  id text PRIMARY KEY CHECK (id IN ('ERC20', 'TRC20')),
  holder text NOT NULL DEFAULT '',
  epoch bigint NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL DEFAULT 'epoch'
);
INSERT INTO watcher_lease (id) VALUES ('ERC20'), ('TRC20');

-- Senders the operators flagged: their transfers wait for a review instead of being credited.
CREATE TABLE flagged_senders (
  network text NOT NULL CHECK (network IN ('ERC20', 'TRC20')),
  address text NOT NULL,
  reason text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network, address)
);

-- A deposit now also comes from the chain: the watcher records it when it sees the transfer
-- (`confirming`), credits it once it has its confirmations (`approved`, or `pending` for an
-- operator above the auto-credit limit or from a flagged sender), or drops it when a
-- reorganisation took it out of the chain before that (`dropped`). Its chain facts are kept, and a
-- claim ("my transfer did not arrive") carries the same facts, read from the node.
--
-- `tx_hash` is the transaction's hash in one form for both networks (64 lower-case hex digits,
-- no 0x): one transfer (hash, log index) backs at most one live deposit, whichever network's form
-- it was named in.
ALTER TABLE deposits
  ADD COLUMN source text NOT NULL DEFAULT 'claim' CHECK (source IN ('claim', 'chain')),
  ADD COLUMN tx_hash text CHECK (tx_hash ~ '^[0-9a-f]{64}$'),
  ADD COLUMN log_index integer CHECK (log_index >= 0),
  ADD COLUMN block_number bigint,
  ADD COLUMN block_hash text,
  ADD COLUMN from_address text,
  ADD COLUMN to_address text,
  ADD COLUMN confirmations integer,
  ADD COLUMN required_confirmations integer;
UPDATE deposits SET tx_hash = regexp_replace(tx_id, '^0x', '') WHERE tx_id IS NOT NULL;

ALTER TABLE deposits DROP CONSTRAINT deposits_status_check;
ALTER TABLE deposits DROP CONSTRAINT deposit_reviewed;
ALTER TABLE deposits DROP CONSTRAINT deposit_evidence;
ALTER TABLE deposits
  ADD CONSTRAINT deposits_status_check
    CHECK (status IN ('confirming', 'pending', 'approved', 'rejected', 'dropped')),
  ADD CONSTRAINT deposit_reviewed
    CHECK ((status IN ('confirming', 'pending')) = (reviewed_at IS NULL)),
  ADD CONSTRAINT deposit_evidence CHECK (
    (channel = 'bank' AND screenshot_id IS NOT NULL) OR (channel <> 'bank' AND tx_hash IS NOT NULL)),
  ADD CONSTRAINT deposit_chain_facts CHECK (
    source = 'claim' OR (log_index IS NOT NULL AND block_number IS NOT NULL AND to_address IS NOT NULL));

DROP INDEX deposits_tx_id_live;
CREATE UNIQUE INDEX deposits_transfer_live ON deposits (tx_hash, coalesce(log_index, -1))
  WHERE tx_hash IS NOT NULL AND status IN ('confirming', 'pending', 'approved');
-- Claims naming a hash without a log index (legacy) stay one per hash.
CREATE UNIQUE INDEX deposits_tx_hash_claim_live ON deposits (tx_hash)
  WHERE tx_hash IS NOT NULL AND log_index IS NULL AND status IN ('pending', 'approved');
-- The watcher's re-reads of its unconfirmed window.
CREATE INDEX deposits_confirming ON deposits (channel, block_number) WHERE status = 'confirming';
