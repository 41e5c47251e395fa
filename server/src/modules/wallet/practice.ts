import type { Db, Queryable } from '@infra/db';
import { badRequest, conflict } from '@server/platform/http/errors';
import type { OrderFigures } from '../orders/order-figures';
import { lockAccounts, transfer } from '../ledger/ledger';

/**
 * Practice money (issue 19, DECISIONS.md): every user has a practice balance in accounts of its
 * own (practice_available, practice_in_orders) against the house's practice account. It is opened
 * with PRACTICE_BALANCE the first time it is needed (the first account summary, usually right
 * after registering), and reset to that figure on request, each by a ledger transfer of its own.
 * It only ever pays for practice orders: every other money endpoint refuses it.
 */
export interface PracticeDeps {
  db: Db;
  /** PRACTICE_BALANCE, minor units. */
  balance: number;
  balancesChanged: (userIds: number[]) => void;
  /** The orders module's reader: a reset waits for open practice orders to settle. */
  orders: Pick<OrderFigures, 'hasOpenOrders'>;
}

/** A request that asks to move practice money anywhere but a practice order: 400, nothing written. */
export function refusePracticeMoney(mode: string | undefined): void {
  if (mode !== undefined && mode !== 'real')
    throw badRequest(
      'PRACTICE_NOT_ALLOWED',
      'Practice money is only for practice orders: it can never be deposited, withdrawn, saved or moved',
      'mode',
    );
}

/**
 * Opens the user's practice balance unless it is open: once, whatever runs at once (the
 * practice_accounts row is the claim), funded from the house's practice account. Returns whether
 * it opened it now.
 */
export async function openPractice(tx: Queryable, userId: number, balance: number) {
  const { rowCount } = await tx.query(
    'INSERT INTO practice_accounts (user_id) VALUES ($1) ON CONFLICT DO NOTHING',
    [userId],
  );
  if (rowCount === 0) return false;
  await transfer(tx, {
    kind: 'practice_open',
    userId,
    ref: `practice:${userId}`,
    legs: [
      { account: { house: 'house_practice' }, amount: -balance },
      { account: { user: userId, kind: 'practice_available' }, amount: balance },
    ],
  });
  return true;
}

export function createPracticeService(d: PracticeDeps) {
  const opened = new Set<number>();
  const ensureOpened = async (userId: number): Promise<void> => {
    if (opened.has(userId)) return;
    const { rowCount } = await d.db.query('SELECT 1 FROM practice_accounts WHERE user_id = $1', [
      userId,
    ]);
    if (rowCount === 0) await d.db.transaction((tx) => openPractice(tx, userId, d.balance));
    opened.add(userId);
  };
  return {
    /** PRACTICE_BALANCE: what a practice balance opens with and is reset to. */
    balance: d.balance,
    ensureOpened,

    /**
     * Sets the practice balance back to PRACTICE_BALANCE by one ledger transfer with the house's
     * practice account (none when it is already there). Refused with 409 PRACTICE_ORDERS_OPEN
     * while a practice order is open, so an order never settles into a balance reset under it.
     */
    async reset(userId: number): Promise<{ practiceAvailable: number }> {
      await ensureOpened(userId);
      await d.db.transaction(async (tx) => {
        const { ids, balances } = await lockAccounts(tx, [
          { user: userId, kind: 'practice_available' },
          { user: userId, kind: 'practice_in_orders' },
        ]);
        // The account locks above order this check after any placement that committed first;
        // a placement after it waits for this transaction and then stakes the reset balance.
        if (
          balances.get(ids.get(`u:${userId}:practice_in_orders`)!)!.balance > 0 ||
          (await d.orders.hasOpenOrders(userId, 'practice', tx))
        )
          throw conflict(
            'PRACTICE_ORDERS_OPEN',
            'Wait for your practice orders to settle before resetting the practice balance',
          );
        const now = balances.get(ids.get(`u:${userId}:practice_available`)!)!.balance;
        if (now === d.balance) return;
        await transfer(tx, {
          kind: 'practice_reset',
          userId,
          legs: [
            { account: { house: 'house_practice' }, amount: now - d.balance },
            { account: { user: userId, kind: 'practice_available' }, amount: d.balance - now },
          ],
        });
      });
      d.balancesChanged([userId]);
      return { practiceAvailable: d.balance };
    },
  };
}

export type PracticeService = ReturnType<typeof createPracticeService>;
