import { route } from '../contract/endpoint';
import type * as savings from './endpoints';

/** The savings endpoints as the clients call them (no zod at run time). */
export const overview = route<typeof savings.savings>('get', '/savings');
export const transferIn = route<typeof savings.savingsIn>('post', '/savings/in', true);
export const transferOut = route<typeof savings.savingsOut>('post', '/savings/out', true);
export const records = route<typeof savings.savingsRecords>('get', '/savings/records');
export const testClock = route<typeof savings.testClock>('get', '/test/clock');
export const advanceTestClock = route<typeof savings.advanceTestClock>('post', '/test/clock');
