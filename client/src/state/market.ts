import { useAtomValue } from 'jotai';
import { atomWithObservable } from 'jotai/utils';
import { scan } from 'rxjs';
import type { MarketSnapshotItem, ProductStatusEvent } from '@shared/market/model';
import { marketById$, offline$, productStatus$ } from '@client/streams';

const emptyMarket: ReadonlyMap<string, MarketSnapshotItem> = new Map();
const emptyEvents: ReadonlyMap<string, ProductStatusEvent> = new Map();

/** The latest market snapshot by product id; holds the `market` channel while mounted. */
export const marketAtom = atomWithObservable(() => marketById$, { initialValue: emptyMarket });

/** Latest `product` event per product (opening times of closures and maintenance). */
export const productEventsAtom = atomWithObservable(
  () =>
    productStatus$.pipe(scan((events, event) => new Map(events).set(event.id, event), emptyEvents)),
  { initialValue: emptyEvents },
);

/** True while the app should say "network signal lost". */
export const offlineAtom = atomWithObservable(() => offline$, { initialValue: false });

export function useMarket(): ReadonlyMap<string, MarketSnapshotItem> {
  return useAtomValue(marketAtom);
}

export function useProductEvents(): ReadonlyMap<string, ProductStatusEvent> {
  return useAtomValue(productEventsAtom);
}

export function useOffline(): boolean {
  return useAtomValue(offlineAtom);
}
