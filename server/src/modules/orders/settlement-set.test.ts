import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@infra/db';
import { recordingUserEvents } from '@server/platform/user-events';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { bulkUsers, openPracticeFor } from '@tests/support/bulk-orders';
import { checkLedger, orderAccounts } from '../ledger/ledger';
import { presentOrder } from './orders.service';
import { startSettlementWorker } from './settlement.worker';
import type { Settlement } from './exit-rule';
import {
  SPAN_MS,
  expected,
  worldArb,
  writeWorld,
  type Placed,
  type Tape,
} from '@tests/support/settlement-world';

/**
 * Property test of settlement by set (settlement-set.repo.ts, driven by the worker's
 * `settleBatch`): over generated tapes and orders, every order ends as exit-rule.ts's `settle`
 * decides for that order alone, with the exit view DECISIONS.md defines: the same status and
 * void reason, the same exit tick (or none), the same payout, and one ledger transfer
 * (`settle:<id>`) of the matching kind moving the stake out of in_orders, the payout to
 * available and the rest to or from the house, in the order's mode. The ledger stays balanced.
 */

const MAX_FEED_DELAY_MS = 3000;

const dbNowMs = async (db: Db) =>
  Number(
    (await db.query<{ ms: number }>('SELECT floor(extract(epoch FROM now()) * 1000)::bigint AS ms'))
      .rows[0]!.ms,
  );

/** Runs the real worker with the given batch size until a round settles nothing more. */
async function settleAll(db: Db, batchSize: number): Promise<void> {
  const worker = startSettlementWorker({
    db,
    orders: { present: (r) => presentOrder(r, 2) },
    userEvents: recordingUserEvents(),
    balancesChanged: () => undefined,
    maxFeedDelayMs: MAX_FEED_DELAY_MS,
    idleMs: 60_000,
    batchSize,
  });
  // Its first round runs at start; the rest by hand.
  await worker.stop();
  while ((await worker.settleBatch()) > 0);
}

/** An order's ending, as the database holds it or as the rule says it should be. */
interface Ending {
  id: number;
  status: string;
  voidReason: string | null;
  exit: { seq: number; ts: number; price: number } | null;
  payout: number | null;
  /** The settle:<id> transfers: kind, mode and entries ("account kind:owner:amount", sorted). */
  transfers: { kind: string; mode: string; entries: string[] }[];
}

const transferKind = {
  won: 'order_payout',
  lost: 'order_loss',
  draw: 'order_refund',
  void: 'order_refund',
};

function wanted(o: Placed, s: Settlement): Ending {
  if (!s.final)
    return { id: o.id, status: 'open', voidReason: null, exit: null, payout: null, transfers: [] };
  const a = orderAccounts[o.mode];
  const entries = [`${a.inOrders}:${o.userId}:${-o.amount}`];
  if (s.payout > 0) entries.push(`${a.available}:${o.userId}:${s.payout}`);
  if (s.payout !== o.amount) entries.push(`${a.house}:house:${o.amount - s.payout}`);
  return {
    id: o.id,
    status: s.status,
    voidReason: s.voidReason,
    exit: s.exit,
    payout: s.payout,
    transfers: [{ kind: transferKind[s.status], mode: o.mode, entries: entries.sort() }],
  };
}

async function endings(db: Db, ids: number[]): Promise<Ending[]> {
  const { rows } = await db.query<{
    id: number;
    status: string;
    void_reason: string | null;
    exit_seq: number | null;
    exit_ts: number | null;
    exit_price: number | null;
    payout: number | null;
  }>(
    `SELECT id, status, void_reason, exit_seq, exit_ts, exit_price, payout
     FROM orders WHERE id = ANY($1::bigint[]) ORDER BY id`,
    [ids],
  );
  const legs = await db.query<{
    ref: string;
    transfer_id: number;
    kind: string;
    mode: string;
    account: string;
    owner_id: number | null;
    amount: number;
  }>(
    `SELECT t.ref, t.id AS transfer_id, t.kind, t.mode, a.kind AS account, a.owner_id, e.amount
     FROM transfers t JOIN entries e ON e.transfer_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
     WHERE t.ref = ANY($1::text[])`,
    [ids.map((id) => `settle:${id}`)],
  );
  const transfersOf = (id: number) => {
    const mine = legs.rows.filter((l) => l.ref === `settle:${id}`);
    return [...new Set(mine.map((l) => Number(l.transfer_id)))].map((tid) => {
      const of = mine.filter((l) => Number(l.transfer_id) === tid);
      return {
        kind: of[0]!.kind,
        mode: of[0]!.mode,
        entries: of.map((l) => `${l.account}:${l.owner_id ?? 'house'}:${Number(l.amount)}`).sort(),
      };
    });
  };
  return rows.map((r) => ({
    id: Number(r.id),
    status: r.status,
    voidReason: r.void_reason,
    exit:
      r.exit_seq === null
        ? null
        : { seq: Number(r.exit_seq), ts: Number(r.exit_ts), price: Number(r.exit_price) },
    payout: r.payout === null ? null : Number(r.payout),
    transfers: transfersOf(Number(r.id)),
  }));
}

/** Every order of the world ends (or stays open) as `settle` says, with its ledger transfer. */
async function expectAsTheRuleSays(
  db: Db,
  world: { tapes: Tape[]; orders: Placed[] },
  at: { watermarkMs: number; feedLive: boolean; nowMs: number },
): Promise<void> {
  const want = world.orders
    .map((o) => {
      const tape = world.tapes.find((t) => t.productId === o.productId)!;
      return wanted(o, expected(o, tape, at, MAX_FEED_DELAY_MS));
    })
    .sort((a, b) => a.id - b.id);
  expect(
    await endings(
      db,
      world.orders.map((o) => o.id),
    ),
  ).toEqual(want);
}

describe.each(dbDrivers())('settlement by set on %s', (kind) => {
  let t: TestDb;
  let users: number[];
  beforeAll(async () => {
    t = await openTestDb(kind);
    users = await bulkUsers(t.db, 2, 1_000_000_000_000);
    await openPracticeFor(t.db, users, 1_000_000_000_000);
  });
  afterAll(async () => {
    await t?.drop();
  });

  let run = 0;
  it('gives every order the outcome, exit, payout and ledger transfer exit-rule.ts gives it alone', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (w) => {
        const db = t.db;
        // Every run trades products of its own (its tapes only), laid out in the recent past:
        // every expiry due and past the grace, none near the backstop.
        const tag = `SET${++run}`;
        let origin = (await dbNowMs(db)) - 3500 - SPAN_MS;
        origin -= origin % 2;
        const watermarkMs = w.watermark === null ? 0 : origin + w.watermark;
        await db.query('UPDATE tape_watermark SET through_ms = $1', [watermarkMs]);
        await db.query(
          `UPDATE sim_lease SET expires_at = ${w.feedLive ? "now() + interval '10 minutes'" : "'epoch'"}`,
        );
        const world = await writeWorld(db, w, { tag, origin, users });
        const nowMs = await dbNowMs(db);
        await settleAll(db, w.batchSize);
        await expectAsTheRuleSays(db, world, { watermarkMs, feedLive: w.feedLive, nowMs });
        if (w.feedLive) {
          // The simulator gone: past the grace, the sets that waited are decided as they are.
          await db.query("UPDATE sim_lease SET expires_at = 'epoch'");
          const later = await dbNowMs(db);
          await settleAll(db, w.batchSize);
          await expectAsTheRuleSays(db, world, { watermarkMs, feedLive: false, nowMs: later });
        }
        expect(await checkLedger(db)).toEqual({ ok: true, problems: [] });
      }),
      { numRuns: 40 },
    );
  }, 180_000);
});
