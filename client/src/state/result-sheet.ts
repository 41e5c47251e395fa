import { atom, getDefaultStore, useAtom, useAtomValue } from 'jotai';
import { useEffect } from 'react';
import type { Order } from '@shared/orders';
import { userEvent$ } from '@client/streams';
import { addResult, isFinal, type SettledResult } from './order-results';
import { beep, resultSoundAtom, resultVibrationAtom, vibrate } from './result-alerts';
import { tokenAtom } from './session';

/** How long the sheet stays open after the last result; then it folds into a small chip. */
const AUTO_HIDE_MS = 8_000;

/** open: the sheet; folded: a chip that opens it again; none: nothing to show. */
export type SheetView = 'open' | 'folded';

const resultsAtom = atom<readonly SettledResult[]>([]);
const sheetViewAtom = atom<SheetView>('open');
/** Whether the list of a group is expanded. */
const expandedAtom = atom(false);

const store = getDefaultStore();
let timer: ReturnType<typeof setTimeout> | undefined;
/** While the pointer or the focus is in the sheet, it does not fold away under the reader. */
let held = false;

function scheduleFold(): void {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (!held) store.set(sheetViewAtom, 'folded');
  }, AUTO_HIDE_MS);
}

/** A settlement arrived: it joins the sheet, which opens (again) and folds after a while. */
export function receiveResult(order: Order, now = Date.now()): boolean {
  const before = store.get(resultsAtom);
  const after = addResult(before, order, now);
  if (after === before) return false;
  store.set(resultsAtom, after);
  store.set(sheetViewAtom, 'open');
  scheduleFold();
  return true;
}

export function openSheet(): void {
  store.set(sheetViewAtom, 'open');
  scheduleFold();
}

/** A result was opened: the sheet folds into its chip, out of the details' way. */
export function foldSheet(): void {
  clearTimeout(timer);
  held = false;
  store.set(sheetViewAtom, 'folded');
}

export function holdSheet(on: boolean): void {
  held = on;
  if (!on && store.get(sheetViewAtom) === 'open') scheduleFold();
}

/** Dismissed (or another user signed in): the results are gone. */
export function clearResults(): void {
  clearTimeout(timer);
  held = false;
  store.set(resultsAtom, []);
  store.set(expandedAtom, false);
  store.set(sheetViewAtom, 'open');
}

export const useResults = (): readonly SettledResult[] => useAtomValue(resultsAtom);
export const useSheetView = (): SheetView => useAtomValue(sheetViewAtom);
export const useExpanded = () => useAtom(expandedAtom);

/**
 * Takes every settlement of the signed-in user's orders from the socket, on any page (the
 * layout's sheet calls it once), with the beep and vibration the user chose in the settings.
 */
export function useSettlementFeed(): void {
  const token = useAtomValue(tokenAtom);
  useEffect(() => {
    clearResults(); // another user, or none: the last one's results are not theirs
    if (!token) return;
    const sub = userEvent$('order').subscribe((order) => {
      if (!isFinal(order) || !receiveResult(order)) return;
      const won = order.status === 'won';
      if (store.get(resultSoundAtom)) beep(won);
      if (store.get(resultVibrationAtom)) vibrate(won);
    });
    return () => sub.unsubscribe();
  }, [token]);
}

/** The sheet's state as plain values (tests, diagnostics): the orders on it and its view. */
export function sheetSnapshot(): { ids: string[]; view: SheetView } {
  return { ids: store.get(resultsAtom).map((r) => r.order.id), view: store.get(sheetViewAtom) };
}
