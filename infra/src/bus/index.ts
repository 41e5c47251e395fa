import type { Logger } from '../logger';
import type { Bus } from './bus';
import { createMemoryBus, createMemoryHub } from './memory';
import { createRedisBus } from './redis';
import type { RedisTarget } from '../redis';

export type { Bus } from './bus';

/** The in-process hub: every bus opened in this process without Redis shares it. */
const processHub = createMemoryHub();

/** Redis when it has a target (REDIS_URL, with REDIS_SENTINELS or not), else in-process. */
export function openBus(target: RedisTarget | undefined, log?: Logger, namespace?: string): Bus {
  return target ? createRedisBus(target, { log, namespace }) : createMemoryBus(processHub);
}
