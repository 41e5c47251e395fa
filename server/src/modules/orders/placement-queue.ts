import type { Order, PlaceOrderBody } from '@shared/orders/model';
import type { Db, Queryable } from '@infra/db';
import { grouped, outcomeOf, type GroupedOptions, type Outcome } from '@server/platform/grouped';
import {
  hashRequest,
  idempotent,
  recordKeys,
  storeAnswers,
  type Answer,
} from '@server/platform/idempotency';
import * as repo from './orders.repo';

/** One placement ready to be written: its order, and its Idempotency-Key if it came with one. */
export interface Placement {
  order: repo.NewOrder;
  key?: string;
  request: PlaceOrderBody;
}

export type Placed = Answer<Order> & { replayed: boolean };

export interface PlacementQueueOptions extends GroupedOptions {
  db: Db;
  present: (row: repo.OrderRow) => Order;
}

/**
 * Placements written with group commit (platform/grouped.ts): those that arrive while the
 * database is busy go together in one statement (repo.insertOrdersWithStakes), keyed ones in one
 * transaction with their keys' records.
 *
 * A group is all or nothing. When it fails (one order's overdraft, say), each of its placements
 * is written again alone, so each gets its own answer and no one's order depends on another's.
 * A key seen before, or twice in one group, goes through `idempotent` alone after the group has
 * committed, and is replayed or refused exactly as it would be without grouping.
 */
export function createPlacementQueue(o: PlacementQueueOptions) {
  /** One placement alone: exactly the path of a single request. */
  const alone = async (p: Placement): Promise<Placed> => {
    const accept = async (db: Queryable) => ({
      status: 201,
      body: o.present((await repo.insertOrdersWithStakes(db, [p.order]))[0]!),
    });
    return p.key
      ? idempotent(o.db, { userId: p.order.userId, key: p.key, request: p.request }, accept)
      : { ...(await accept(o.db)), replayed: false };
  };

  /** Writes a group; the placements it answered, and those it left to be written alone. */
  const writeGroup = async (group: readonly Placement[]): Promise<Map<Placement, Placed>> => {
    const answered = new Map<Placement, Placed>();
    if (!group.some((p) => p.key)) {
      const rows = await repo.insertOrdersWithStakes(
        o.db,
        group.map((p) => p.order),
      );
      group.forEach((p, i) =>
        answered.set(p, { status: 201, body: o.present(rows[i]!), replayed: false }),
      );
      return answered;
    }
    // A (user, key) met a second time in the group is left for later: it then replays the first.
    const seen = new Set<string>();
    const first = group.filter((p) => {
      if (!p.key) return true;
      const id = `${p.order.userId}:${p.key}`;
      return !seen.has(id) && !!seen.add(id);
    });
    const placed = await o.db.transaction(async (tx) => {
      const keyed = first.filter((p) => p.key);
      const fresh = await recordKeys(
        tx,
        keyed.map((p) => ({
          userId: p.order.userId,
          key: p.key!,
          requestHash: hashRequest(p.request),
        })),
      );
      const known = new Set(keyed.filter((_, i) => !fresh.has(i)));
      const writing = first.filter((p) => !known.has(p));
      const rows = writing.length
        ? await repo.insertOrdersWithStakes(
            tx,
            writing.map((p) => p.order),
          )
        : [];
      const bodies = writing.map((p, i) => ({ p, body: o.present(rows[i]!) }));
      await storeAnswers(
        tx,
        bodies.flatMap(({ p, body }) =>
          p.key ? [{ userId: p.order.userId, key: p.key, status: 201, body }] : [],
        ),
      );
      return bodies;
    });
    for (const { p, body } of placed) answered.set(p, { status: 201, body, replayed: false });
    return answered;
  };

  return grouped<Placement, Placed>(
    async (group): Promise<Outcome<Placed>[]> => {
      const answered = await writeGroup(group).catch((err: unknown) => {
        // The group wrote nothing: alone, each placement meets its own fate.
        if (group.length === 1) throw err;
        return new Map<Placement, Placed>();
      });
      return Promise.all(
        group.map((p): Promise<Outcome<Placed>> => {
          const answer = answered.get(p);
          return answer ? Promise.resolve({ value: answer }) : outcomeOf(() => alone(p));
        }),
      );
    },
    { maxBatch: o.maxBatch, maxInFlight: o.maxInFlight },
  );
}
