import type { BusMessage, BusMessageType } from '@shared/bus';
import type { Bus, BusHandler } from './bus';

type Handler = (m: BusMessage) => void;

/** What in-process buses of one process share: the subscribers per message type. */
export interface MemoryHub {
  handlers: Map<BusMessageType, Set<Handler>>;
}

export const createMemoryHub = (): MemoryHub => ({ handlers: new Map() });

/**
 * In-process bus for the embedded mode. Delivery is asynchronous (a microtask), as with Redis, so
 * code behaves the same on both. Messages are shared by reference: handlers must not mutate them.
 */
export function createMemoryBus(hub: MemoryHub = createMemoryHub()): Bus {
  const mine = new Set<{ type: BusMessageType; handler: Handler }>();
  let closed = false;
  return {
    kind: 'memory',
    publish(message) {
      if (closed) return Promise.reject(new Error('bus closed'));
      const set = hub.handlers.get(message.type);
      if (set?.size) {
        const targets = [...set];
        queueMicrotask(() => {
          for (const h of targets) h(message);
        });
      }
      return Promise.resolve();
    },
    subscribe<T extends BusMessageType>(type: T, handler: BusHandler<T>) {
      const set = hub.handlers.get(type) ?? new Set();
      hub.handlers.set(type, set);
      const entry = { type, handler: handler as Handler };
      set.add(entry.handler);
      mine.add(entry);
      return Promise.resolve(() => {
        set.delete(entry.handler);
        mine.delete(entry);
        return Promise.resolve();
      });
    },
    ready: () => !closed,
    close() {
      closed = true;
      for (const { type, handler } of mine) hub.handlers.get(type)?.delete(handler);
      mine.clear();
      return Promise.resolve();
    },
  };
}
