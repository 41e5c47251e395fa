import { useAtom } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import { guardedStorage } from './session-storage';

const isFlag = (v: unknown): v is boolean => typeof v === 'boolean';
const skipConfirmAtom = atomWithStorage<boolean | null>(
  'skipOrderConfirm',
  null,
  guardedStorage(isFlag),
  { getOnInit: true },
);

/**
 * The opt-in "skip confirmation" of the order ticket, kept on this device. Off unless the user
 * turns it on in the settings: the confirmation dialog is the default.
 */
export function useSkipConfirm(): [boolean, (next: boolean) => void] {
  const [value, setValue] = useAtom(skipConfirmAtom);
  return [value === true, (next) => setValue(next ? true : null)];
}
