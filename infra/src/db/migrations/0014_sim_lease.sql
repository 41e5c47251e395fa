-- One simulator leads; any other waits as a hot standby (market-sim/src/lease.ts). The row is
-- the lease: who holds it, since which epoch (raised on every change of holder), until when
-- (the database's clock, so the hosts' clocks do not matter). The tape writer checks the epoch
-- in each of its transactions: a former leader that lost the lease cannot write to the tape.
CREATE TABLE sim_lease (
  id int PRIMARY KEY CHECK (id = 1),
  holder text NOT NULL,
  epoch bigint NOT NULL,
  expires_at timestamptz NOT NULL
);
INSERT INTO sim_lease (id, holder, epoch, expires_at) VALUES (1, '', 0, 'epoch');
