import { useEffect, useRef } from 'react';

/**
 * The phone's Back button closes an open overlay instead of leaving the page (issue 37, item
 * 10): opening pushes a history entry of the same URL, marked as the overlay's own; Back (a
 * popstate away from that entry) closes it; closing it any other way (its own button, Escape, a
 * pick) takes that entry off again, so no stray entry is left behind it.
 *
 * The router (HashRouter) sees these entries as the same location: the state keeps its key and
 * index and only adds `overlay`.
 */
let seq = 0;
/** A close whose history.back() waits a moment: a remount (React's StrictMode) adopts its entry. */
let pending: { marker: string; timer: ReturnType<typeof setTimeout> } | null = null;

const overlayOf = (): unknown => (window.history.state as { overlay?: unknown } | null)?.overlay;

function openEntry(): string {
  if (pending && overlayOf() === pending.marker) {
    clearTimeout(pending.timer);
    const { marker } = pending;
    pending = null;
    return marker;
  }
  const marker = `overlay-${++seq}-${Date.now()}`;
  const state = (window.history.state as Record<string, unknown> | null) ?? {};
  window.history.pushState({ ...state, overlay: marker }, '');
  return marker;
}

function closeEntry(marker: string): void {
  const timer = setTimeout(() => {
    if (pending?.marker === marker) pending = null;
    if (overlayOf() === marker) window.history.back();
  }, 0);
  pending = { marker, timer };
}

/** While mounted, Back calls `onClose` (the latest one given). */
export function useBackCloses(onClose: () => void): void {
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    const marker = openEntry();
    let popped = false;
    const onPop = () => {
      // Still on (or back to) this overlay's entry: a nested overlay above it closed.
      if (overlayOf() === marker) return;
      popped = true;
      close.current();
    };
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('popstate', onPop);
      // Closed by Back: its entry is gone already. Closed by a navigation: the app has moved on.
      if (!popped && overlayOf() === marker) closeEntry(marker);
    };
  }, []);
}
