import { describe } from 'vitest';
import { busContract } from './bus.contract';
import { createMemoryBus, createMemoryHub } from './memory';

describe('in-process bus', () => {
  // One hub per process; every component gets its own bus handle on it.
  const hub = createMemoryHub();
  busContract(() => createMemoryBus(hub));
});
