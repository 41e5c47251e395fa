import { useEffect } from 'react';
import { atom, useAtomValue, useSetAtom } from 'jotai';

/**
 * The duration chosen in the trade screen's ticket (seconds; null without a ticket): the chart
 * follows it with its candle interval (pages/Detail/chart-view.ts). One ticket is on screen at a
 * time, so one value serves; the ticket clears it when it goes.
 */
const ticketDurationAtom = atom<number | null>(null);

export function useTicketDuration(): number | null {
  return useAtomValue(ticketDurationAtom);
}

/** Called by the ticket's duration picker with what is chosen now. */
export function useReportTicketDuration(seconds: number | null): void {
  const set = useSetAtom(ticketDurationAtom);
  useEffect(() => {
    set(seconds);
  }, [set, seconds]);
  useEffect(() => () => set(null), [set]);
}
