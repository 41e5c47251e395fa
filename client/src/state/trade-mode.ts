import { useAtom } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import type { TradeMode } from '@shared/orders/model';
import { guardedStorage } from './session-storage';
import { useAccountSummary } from './account';
import { useUser } from './session';

/** The mode a user picked on this device, with whose choice it was. */
interface ModeChoice {
  user: string;
  mode: TradeMode;
}
const isChoice = (v: unknown): v is ModeChoice =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as ModeChoice).user === 'string' &&
  ((v as ModeChoice).mode === 'real' || (v as ModeChoice).mode === 'practice');

const choiceAtom = atomWithStorage<ModeChoice | null>('tradeMode', null, guardedStorage(isChoice), {
  getOnInit: true,
});

/**
 * Real or practice trading (issue 19), shared by every trading screen: the user's own choice on
 * this device, else practice for a newcomer with no real money (a first trade needs no deposit)
 * and real for everyone else. `newcomer`: no real money at all (the hint about a deposit).
 */
export function useTradeMode(): {
  mode: TradeMode;
  setMode: (mode: TradeMode) => void;
  newcomer: boolean;
} {
  const user = useUser();
  const [choice, setChoice] = useAtom(choiceAtom);
  const { summary } = useAccountSummary();
  const newcomer = summary !== null && summary.totalAssets === 0;
  const chosen = choice && user && choice.user === user.id ? choice.mode : null;
  const mode: TradeMode = chosen ?? (newcomer ? 'practice' : 'real');
  return {
    mode,
    newcomer,
    setMode: (next) => {
      if (user) setChoice({ user: user.id, mode: next });
    },
  };
}
