import { atom, getDefaultStore, useAtom, useAtomValue } from 'jotai';
import type { Order } from '@shared/orders/model';
import { addResult, isFinal, type SettledResult } from './order-results';

/**
 * Results, as a trader lives them (issue 37; DECISIONS.md, Unseen results): each new result shows
 * once as a small toast at the top, clear of the buy buttons, and hides by itself after TOAST_MS;
 * it stays "new" (the results button's badge) until the user acknowledges it: dismissing the
 * toast, tapping it, or opening the results list. Acknowledgements go to the server (unseen-
 * results.ts), which tells the user's other devices.
 */
export const TOAST_MS = 5_000;

const resultsAtom = atom<readonly SettledResult[]>([]);
/** Ids of results on this device no device has acknowledged. */
const unseenAtom = atom<ReadonlySet<string>>(new Set<string>());
/** Ids on the toast now, newest first. */
const toastAtom = atom<readonly string[]>([]);
const sheetOpenAtom = atom(false);
/** Whether the sheet's list of a group is expanded. */
const expandedAtom = atom(false);

const store = getDefaultStore();
let timer: ReturnType<typeof setTimeout> | undefined;
/** While the pointer or the focus is on the toast, it does not hide under the reader. */
let held = false;
/** Told of every acknowledgement made here (unseen-results.ts sends it to the server). */
let onAcknowledged: (ids: string[]) => void = () => undefined;

export function setAcknowledgementSink(sink: (ids: string[]) => void): void {
  onAcknowledged = sink;
}

function scheduleHide(): void {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (!held) store.set(toastAtom, []);
  }, TOAST_MS);
}

/**
 * A settled order reached this device (live, or from the server's unseen list): it joins the
 * list; unless `acknowledged`, it is new, and unless `toasted` (shown here before) it toasts.
 * Returns whether it was news to this device.
 */
export function receiveResult(
  order: Order,
  { now = Date.now(), toast = true }: { now?: number; toast?: boolean } = {},
): boolean {
  if (!isFinal(order)) return false;
  const before = store.get(resultsAtom);
  const after = addResult(before, order, now);
  if (after === before) return false;
  store.set(resultsAtom, after);
  const kept = new Set(after.map((r) => r.order.id));
  store.set(unseenAtom, new Set([order.id, ...store.get(unseenAtom)].filter((id) => kept.has(id))));
  if (toast) {
    store.set(
      toastAtom,
      [order.id, ...store.get(toastAtom)].filter((id) => kept.has(id)),
    );
    scheduleHide();
  }
  return true;
}

/** These results were acknowledged (here or, by the server's event, elsewhere): no longer new. */
export function forgetUnseen(ids: readonly string[]): void {
  const gone = new Set(ids);
  const unseen = store.get(unseenAtom);
  if ([...unseen].some((id) => gone.has(id)))
    store.set(unseenAtom, new Set([...unseen].filter((id) => !gone.has(id))));
  const toast = store.get(toastAtom);
  if (toast.some((id) => gone.has(id)))
    store.set(
      toastAtom,
      toast.filter((id) => !gone.has(id)),
    );
}

/** The user acknowledged these results: forgotten as new here and sent to the server. */
export function acknowledge(ids: readonly string[]): void {
  const unseen = store.get(unseenAtom);
  const news = ids.filter((id) => unseen.has(id));
  forgetUnseen(ids);
  if (news.length) onAcknowledged(news);
}

/** The toast's × (or a swipe): its results are acknowledged and it goes. */
export function dismissToast(): void {
  clearTimeout(timer);
  held = false;
  acknowledge(store.get(toastAtom));
  store.set(toastAtom, []);
}

export function holdToast(on: boolean): void {
  held = on;
  if (!on && store.get(toastAtom).length) scheduleHide();
}

/** The results list, on demand: everything on it counts as seen. */
export function openSheet(): void {
  clearTimeout(timer);
  store.set(toastAtom, []);
  store.set(sheetOpenAtom, true);
  acknowledge([...store.get(unseenAtom)]);
}

export function closeSheet(): void {
  store.set(sheetOpenAtom, false);
  store.set(expandedAtom, false);
}

/** A result was opened (its details): acknowledged, and the sheet and toast step aside. */
export function resultOpened(id: string): void {
  acknowledge([id]);
  clearTimeout(timer);
  store.set(toastAtom, []);
  closeSheet();
}

/** Another user signed in, or none: the last one's results are not theirs. */
export function clearResults(): void {
  clearTimeout(timer);
  held = false;
  store.set(resultsAtom, []);
  store.set(unseenAtom, new Set<string>());
  store.set(toastAtom, []);
  closeSheet();
}

export const useResults = (): readonly SettledResult[] => useAtomValue(resultsAtom);
export const useUnseenCount = (): number => useAtomValue(unseenAtom).size;
export const useSheetOpen = (): boolean => useAtomValue(sheetOpenAtom);
export const useExpanded = () => useAtom(expandedAtom);

/** The results on the toast now, newest first. */
export function useToastResults(): readonly SettledResult[] {
  const ids = useAtomValue(toastAtom);
  const results = useAtomValue(resultsAtom);
  return results.filter((r) => ids.includes(r.order.id));
}

/** The state as plain values (tests, diagnostics). */
export function sheetSnapshot(): {
  ids: string[];
  unseen: string[];
  toast: string[];
  open: boolean;
} {
  return {
    ids: store.get(resultsAtom).map((r) => r.order.id),
    unseen: [...store.get(unseenAtom)].sort(),
    toast: [...store.get(toastAtom)],
    open: store.get(sheetOpenAtom),
  };
}
