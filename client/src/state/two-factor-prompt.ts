import { useQuery } from '@tanstack/react-query';
import { getDefaultStore, useAtom } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import { getTwoFactor } from '@client/api/security';
import { listFundRecords } from '@client/api/wallet';
import { queryClient, queryKeys } from './query-client';
import { guardedStorage } from './session-storage';
import { tokenAtom, useUser } from './session';
import { twoFactorKey } from './two-factor';

/** The users who answered "Not now" on this device, by id. */
const isIdList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((id) => typeof id === 'string');
const dismissedAtom = atomWithStorage<string[] | null>(
  'twoFactorPromptDismissed',
  null,
  guardedStorage(isIdList),
  { getOnInit: true },
);

/**
 * Whether any deposit of the user has been credited: one fund record of the kind `deposit` (a
 * credit writes it; a deposit under review, rejected or dropped writes none, and practice money
 * never does). Under `wallet`, so the `balance` event of a credit reads it again (query-bridge.ts).
 */
export const creditedKey = [...queryKeys.fundRecords('deposit'), 'any'];
const anyCredited = () =>
  listFundRecords({ type: 'deposit', limit: 1 }).then((page) => page.items.length > 0);

/**
 * Whether to urge two-factor sign-in on (issue 39: strongly encouraged after the first
 * deposit): off, with a credited deposit, not dismissed. `undefined` is "not read": a read on its
 * way, failed or offline shows nothing, so the card never flashes on a trader who has it on.
 */
export function twoFactorPromptShown(
  twoFactorOn: boolean | undefined,
  credited: boolean | undefined,
  dismissed: boolean,
): boolean {
  return !dismissed && twoFactorOn === false && credited === true;
}

/**
 * The prompt to turn two-factor on, for the signed-in user: `shown`, and `dismiss` ("Not now"),
 * kept for this user on this device. The two-factor state is the security page's read (turning
 * it on there reads it again); the credit is read only once two-factor is known to be off.
 */
export function useTwoFactorPrompt(): { shown: boolean; dismiss: () => void } {
  const user = useUser();
  const [dismissedBy, setDismissedBy] = useAtom(dismissedAtom);
  const dismissed = user === null || (dismissedBy ?? []).includes(user.id);
  // Judged when a read would start, not when the page drew: a logout drops the session and then
  // reads the user's queries on screen again (query-bridge.ts), and these must not go without it.
  const signedIn = () => getDefaultStore().get(tokenAtom) !== null;
  const twoFactor = useQuery(
    {
      queryKey: twoFactorKey,
      queryFn: () => getTwoFactor(),
      enabled: () => !dismissed && signedIn(),
      gcTime: 0,
    },
    queryClient,
  ).data?.enabled;
  const credited = useQuery(
    {
      queryKey: creditedKey,
      queryFn: anyCredited,
      enabled: () => twoFactor === false && signedIn(),
      gcTime: 0,
    },
    queryClient,
  );
  return {
    shown: twoFactorPromptShown(twoFactor, credited.data, dismissed),
    dismiss: () => {
      if (user) setDismissedBy([...(dismissedBy ?? []).filter((id) => id !== user.id), user.id]);
    },
  };
}
