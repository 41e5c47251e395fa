import { useQuery } from '@tanstack/react-query';
import { getTestClock } from '@client/api/savings';
import { serverNow } from '@client/streams';
import { queryClient } from './query-client';
import { useAppInfo } from './session';

/**
 * The server's platform clock (the hold on new withdrawal accounts, the savings day), as seen
 * here. It is the server's wall clock, which the socket's time round trips give (`serverNow`),
 * except on a server started with TEST_CLOCK=1: there tests move the platform clock ahead through
 * /api/test/clock while the socket keeps telling the wall clock, so a countdown on `serverNow`
 * alone stayed on screen after the hold had ended on the server. `lead` is how far ahead the
 * platform clock runs, read from the test clock while something counts down on it.
 */
let lead = 0;

/** How often a countdown on a test-clock server reads that clock (moves come from outside). */
const TEST_CLOCK_READ_MS = 2_000;

/** Now on the server's platform clock (epoch ms). */
export function platformNow(): number {
  return serverNow() + lead;
}

/** Reads the test clock; its lead over the wall clock is taken at the midpoint of the trip. */
async function readTestClock(): Promise<number> {
  const sentAt = serverNow();
  const { now } = await getTestClock();
  lead = Math.round(now - (sentAt + serverNow()) / 2);
  return lead;
}

/**
 * Keeps `platformNow` following the test clock while `counting` (a countdown on screen), on a
 * server started with TEST_CLOCK=1 only; elsewhere nothing is read. One read for every
 * countdown on the page (one query).
 */
export function useFollowTestClock(counting: boolean): void {
  const testClock = useAppInfo()?.testClock === true;
  useQuery(
    {
      queryKey: ['test-clock'],
      queryFn: readTestClock,
      enabled: testClock && counting,
      refetchInterval: TEST_CLOCK_READ_MS,
      gcTime: 0,
    },
    queryClient,
  );
}
