import { useRef, useState } from 'react';
import type { Order, PlaceOrderBody } from '@shared/orders/model';
import { placeOrder } from '@client/api/orders';
import { attemptFor, outcomeUnknown, type Attempt } from './ticket';

export type PlaceResult =
  | { kind: 'placed'; order: Order }
  /** Refused by the server (a 4xx): final, the attempt is over. */
  | { kind: 'refused'; error: unknown }
  /** No answer, or a server error: it may or may not have been placed; a retry is safe. */
  | { kind: 'unknown'; error: unknown };

/**
 * Sends confirmed orders with an Idempotency-Key per attempt. An attempt whose outcome is unknown
 * is kept: confirming the same order again resends it with the same key, so the server places it
 * at most once. A placed or refused attempt is finished; the next confirmation is a new attempt.
 */
export function usePlaceOrder(): {
  busy: boolean;
  place: (body: PlaceOrderBody) => Promise<PlaceResult>;
} {
  const unfinished = useRef<Attempt | null>(null);
  const [busy, setBusy] = useState(false);

  const place = async (body: PlaceOrderBody): Promise<PlaceResult> => {
    const attempt = attemptFor(unfinished.current, body);
    unfinished.current = attempt;
    setBusy(true);
    try {
      const order = await placeOrder(attempt.body, attempt.key);
      unfinished.current = null;
      return { kind: 'placed', order };
    } catch (error) {
      if (outcomeUnknown(error)) return { kind: 'unknown', error };
      unfinished.current = null;
      return { kind: 'refused', error };
    } finally {
      setBusy(false);
    }
  };

  return { busy, place };
}
