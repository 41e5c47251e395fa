import type { Order, PlaceOrderBody } from '@shared/orders/model';
import type { Db, Queryable } from '@infra/db';
import { grouped, outcomeOf, type GroupedOptions, type Outcome } from '@server/platform/grouped';
import { hashRequest, idempotent, type Answer } from '@server/platform/idempotency';
import * as repo from './orders.repo';

/** One placement ready to be written: its order, and its Idempotency-Key if it came with one. */
export interface Placement {
  order: repo.NewOrder;
  key?: string;
  request: PlaceOrderBody;
}

export type Placed = Answer<Order> & { replayed: boolean };

/**
 * An order as its placement's answer showed it (open, not yet entered): what a repeat of a keyed
 * placement replays, whatever became of the order since.
 */
export const asPlaced = (order: Order): Order => ({
  ...order,
  status: 'open',
  entry: null,
  exit: null,
  payout: null,
  pnl: null,
  settledAt: null,
  voidReason: null,
  sale: null,
});

export interface PlacementQueueOptions extends GroupedOptions {
  db: Db;
  present: (row: repo.OrderRow) => Order;
}

/**
 * The answer of a user's key recorded with its order (`idempotency_keys.order_id`): the order as
 * placed, read again.
 */
export const placedAnswer =
  (present: (row: repo.OrderRow) => Order, userId: number) =>
  async (db: Queryable, orderId: number): Promise<Answer<Order>> => {
    const row = await repo.orderOfUser(db, userId, orderId);
    if (!row)
      throw new Error(`idempotency: key of user ${userId} names order ${orderId}, not theirs`);
    return { status: 201, body: asPlaced(present(row)) };
  };

/**
 * Placements written with group commit (platform/grouped.ts): those that arrive while the
 * database is busy go together in one statement (repo.insertOrdersWithStakes), their
 * Idempotency-Keys recorded in it, each linked to its order (DECISIONS 64).
 *
 * A group is all or nothing. When it fails (one order's overdraft, a key recorded before), each
 * of its placements is written again alone, so each gets its own answer and no one's order
 * depends on another's. Alone, a keyed placement goes through `idempotent`, and a key seen
 * before (or twice in one group: the second waits for the first) is replayed or refused exactly
 * as it would be without grouping.
 */
export function createPlacementQueue(o: PlacementQueueOptions) {
  /** One placement alone: exactly the path of a single request. */
  const alone = async (p: Placement): Promise<Placed> => {
    const accept = async (db: Queryable) => ({
      status: 201,
      body: o.present((await repo.insertOrdersWithStakes(db, [p.order]))[0]!),
    });
    return p.key
      ? idempotent(
          o.db,
          {
            userId: p.order.userId,
            key: p.key,
            request: p.request,
            linked: placedAnswer(o.present, p.order.userId),
          },
          accept,
        )
      : { ...(await accept(o.db)), replayed: false };
  };

  /** Writes a group; the placements it answered, and those it left to be written alone. */
  const writeGroup = async (group: readonly Placement[]): Promise<Map<Placement, Placed>> => {
    // A (user, key) met a second time in the group is left for later: it then replays the first.
    const seen = new Set<string>();
    const first = group.filter((p) => {
      if (!p.key) return true;
      const id = `${p.order.userId}:${p.key}`;
      return !seen.has(id) && !!seen.add(id);
    });
    const rows = await repo.insertOrdersWithStakes(
      o.db,
      first.map((p) =>
        p.key
          ? { ...p.order, idempotency: { key: p.key, requestHash: hashRequest(p.request) } }
          : p.order,
      ),
    );
    return new Map(
      first.map((p, i) => [p, { status: 201, body: o.present(rows[i]!), replayed: false }]),
    );
  };

  return grouped<Placement, Placed>(
    async (group): Promise<Outcome<Placed>[]> => {
      const answered = await writeGroup(group).catch((err: unknown) => {
        // The group wrote nothing: alone, each placement meets its own fate (a keyed one, too,
        // when alone already: its key may have been recorded before, to be replayed).
        if (group.length === 1 && !group[0]!.key) throw err;
        return new Map<Placement, Placed>();
      });
      // Alone, a key sent twice waits for its first: the first sent is the one placed.
      const firstOf = new Map<string, Promise<unknown>>();
      return Promise.all(
        group.map((p): Promise<Outcome<Placed>> => {
          const answer = answered.get(p);
          if (answer) return Promise.resolve({ value: answer });
          const id = p.key && `${p.order.userId}:${p.key}`;
          const before = id ? firstOf.get(id) : undefined;
          const outcome = before
            ? before.then(() => outcomeOf(() => alone(p)))
            : outcomeOf(() => alone(p));
          if (id && !before) firstOf.set(id, outcome);
          return outcome;
        }),
      );
    },
    { maxBatch: o.maxBatch, maxInFlight: o.maxInFlight },
  );
}
