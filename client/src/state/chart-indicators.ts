import { useAtom } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import { guardedStorage } from './session-storage';

/** The chart indicators a trader turned on, kept on this device (none at first). */
export interface ChartIndicators {
  ma: boolean;
  boll: boolean;
}

const isChoice = (v: unknown): v is ChartIndicators =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as ChartIndicators).ma === 'boolean' &&
  typeof (v as ChartIndicators).boll === 'boolean';

const none: ChartIndicators = { ma: false, boll: false };
const indicatorsAtom = atomWithStorage<ChartIndicators | null>(
  'chartIndicators',
  null,
  guardedStorage(isChoice),
  { getOnInit: true },
);

export function useChartIndicators(): [ChartIndicators, (next: ChartIndicators) => void] {
  const [choice, setChoice] = useAtom(indicatorsAtom);
  return [choice ?? none, setChoice];
}
