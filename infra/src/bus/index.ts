import type { Logger } from '../logger';
import type { Bus } from './bus';
import { createMemoryBus, createMemoryHub } from './memory';
import { createRedisBus } from './redis';

export type { Bus } from './bus';

/** The in-process hub: every bus opened in this process without Redis shares it. */
const processHub = createMemoryHub();

/** Redis when REDIS_URL is set, else in-process. */
export function openBus(redisUrl: string | undefined, log?: Logger, namespace?: string): Bus {
  return redisUrl ? createRedisBus(redisUrl, { log, namespace }) : createMemoryBus(processHub);
}
