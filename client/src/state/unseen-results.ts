import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { filter, fromEvent, merge, pairwise, type Subscription } from 'rxjs';
import { getUnseenResults, markResultsSeen } from '@client/api/orders';
import { connection$, userEvent$ } from '@client/streams';
import { isFinal, pnlOf } from './order-results';
import { beep, resultSoundAtom, resultVibrationAtom, vibrate } from './result-alerts';
import {
  clearResults,
  forgetUnseen,
  receiveResult,
  setAcknowledgementSink,
  sheetSnapshot,
} from './result-sheet';
import { tokenAtom } from './session';
import { getDefaultStore } from 'jotai';

/** The results this device has toasted (order ids are global): each toasts once per device. */
const TOASTED_KEY = 'resultsToasted';
const TOASTED_KEPT = 200;

function toasted(): Set<string> {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(TOASTED_KEY) ?? '[]');
    return new Set(Array.isArray(raw) ? raw.filter((v) => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

function markToasted(ids: readonly string[]): void {
  const kept = [...new Set([...toasted(), ...ids])].slice(-TOASTED_KEPT);
  try {
    localStorage.setItem(TOASTED_KEY, JSON.stringify(kept));
  } catch {
    // Private mode, full storage: a result may toast again after a reload, nothing worse.
  }
}

/** Acknowledgements the server has not taken yet (offline): sent again on the next sync. */
const pending = new Set<string>();

async function sendAcknowledgements(ids: readonly string[]): Promise<void> {
  for (const id of ids) pending.add(id);
  const batch = [...pending].slice(0, 100);
  if (!batch.length) return;
  try {
    await markResultsSeen(batch);
    for (const id of batch) pending.delete(id);
  } catch {
    // Kept in `pending`: the next reconnection sends them.
  }
}

/**
 * Fetches the results no device has acknowledged: each shows here (a toast, once per device),
 * and a result this device holds as new but the server no longer lists was seen elsewhere.
 */
async function syncUnseen(): Promise<void> {
  await sendAcknowledgements([]);
  let items;
  try {
    ({ items } = await getUnseenResults());
  } catch {
    return; // Offline or signed out: the next reconnection tries again.
  }
  const shown = toasted();
  // Oldest first, so the newest leads the list and the toast.
  for (const order of [...items].reverse())
    receiveResult(order, { toast: !shown.has(order.id) && !pending.has(order.id) });
  markToasted(items.map((o) => o.id));
  const listed = new Set(items.map((o) => o.id));
  forgetUnseen(sheetSnapshot().unseen.filter((id) => !listed.has(id) && !pending.has(id)));
}

/** A live settlement: it toasts (with the beep and vibration the user chose) unless seen here. */
function liveResult(order: Parameters<typeof receiveResult>[0]): void {
  if (!isFinal(order)) return;
  const fresh = !toasted().has(order.id);
  if (!receiveResult(order, { toast: fresh }) || !fresh) return;
  markToasted([order.id]);
  const store = getDefaultStore();
  // A sale that made money sounds like a win; one at a loss like a loss.
  const won = order.status === 'won' || (order.status === 'sold' && pnlOf(order) > 0);
  if (store.get(resultSoundAtom)) beep(won);
  if (store.get(resultVibrationAtom)) vibrate(won);
}

/**
 * A result a request answered before its event came (a sale): it shows as the event would, and
 * the event, when it comes, changes nothing (each order is one result, toasted once).
 */
export function answeredResult(order: Parameters<typeof receiveResult>[0]): void {
  liveResult(order);
}

/**
 * Every result of the signed-in user, on any page (the layout calls it once): live settlements
 * from the socket, and on start, on every reconnection of the socket and when the browser is
 * back online, the server's unseen results (a result settled while this device was away).
 * Another device's acknowledgement (`results` event) clears them here at once.
 */
export function useSettlementFeed(): void {
  const token = useAtomValue(tokenAtom);
  useEffect(() => {
    clearResults(); // another user, or none: the last one's results are not theirs
    pending.clear();
    if (!token) return;
    setAcknowledgementSink((ids) => void sendAcknowledgements(ids));
    // A reconnection only: the first connection (and a token switch's, 'connecting' again)
    // is covered by the sync below; counting it too read the list twice on every page.
    const reconnected$ = connection$.pipe(
      pairwise(),
      filter(([was, is]) => was === 'disconnected' && is === 'connected'),
    );
    const subs: Subscription[] = [
      userEvent$('order').subscribe(liveResult),
      userEvent$('results').subscribe(({ ids }) => {
        markToasted(ids);
        forgetUnseen(ids);
      }),
      merge(reconnected$, fromEvent(window, 'online')).subscribe(() => void syncUnseen()),
    ];
    void syncUnseen();
    return () => {
      for (const sub of subs) sub.unsubscribe();
      setAcknowledgementSink(() => undefined);
    };
  }, [token]);
}
