import { atom, getDefaultStore, useAtomValue } from 'jotai';

/** How long a toast stays (seed spec §9). */
export const TOAST_MS = 2000;

export interface ToastMessage {
  /** Changes with every toast, so the same text twice is announced and timed twice. */
  id: number;
  text: string;
}

const toastAtom = atom<ToastMessage | null>(null);
const store = getDefaultStore();
let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Shows `text` for 2000 ms; a newer toast replaces the one on screen. Lives in the store, not in
 * a page, so a toast survives the navigation that often follows it ("registration succeeded").
 */
export function showToast(text: string, durationMs = TOAST_MS): void {
  const message = { id: nextId++, text };
  store.set(toastAtom, message);
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (store.get(toastAtom)?.id === message.id) store.set(toastAtom, null);
  }, durationMs);
}

export const useToast = (): ToastMessage | null => useAtomValue(toastAtom);
