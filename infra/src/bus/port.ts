import type { MessagePort } from 'node:worker_threads';
import type { BusMessage, BusMessageType } from '@shared/bus';
import type { Bus, BusHandler } from './bus';

/** What crosses a bus bridge between two threads. */
type BridgeMessage =
  | { kind: 'publish'; message: BusMessage }
  | { kind: 'subscribe'; type: BusMessageType }
  | { kind: 'deliver'; message: BusMessage };

type Handler = (m: BusMessage) => void;

/**
 * A bus on a thread without one of its own (the embedded simulator's thread): what it publishes
 * goes through `port` to the thread that holds the real bus (`bridgeBus`), which delivers back the
 * message types this side subscribes to.
 */
export function portBus(port: MessagePort): Bus {
  const handlers = new Map<BusMessageType, Set<Handler>>();
  let closed = false;
  port.on('message', (m: BridgeMessage) => {
    if (m.kind !== 'deliver') return;
    for (const h of handlers.get(m.message.type) ?? []) h(m.message);
  });
  const send = (m: BridgeMessage) => port.postMessage(m);
  return {
    kind: 'memory',
    publish(message) {
      if (closed) return Promise.reject(new Error('bus closed'));
      send({ kind: 'publish', message });
      return Promise.resolve();
    },
    subscribe<T extends BusMessageType>(type: T, handler: BusHandler<T>) {
      let set = handlers.get(type);
      if (!set) {
        set = new Set();
        handlers.set(type, set);
        send({ kind: 'subscribe', type });
      }
      set.add(handler as Handler);
      return Promise.resolve(() => {
        set.delete(handler as Handler);
        return Promise.resolve();
      });
    },
    ready: () => !closed,
    close() {
      closed = true;
      handlers.clear();
      port.close();
      return Promise.resolve();
    },
  };
}

/**
 * The other end of `portBus`: publishes on `bus` what arrives through `port` (handing each
 * message to `onPublish` first), and forwards the types the other side subscribes to.
 */
export function bridgeBus(
  port: MessagePort,
  bus: Bus,
  onPublish?: (m: BusMessage) => void,
): { close(): Promise<void> } {
  const offs: Promise<() => Promise<void>>[] = [];
  port.on('message', (m: BridgeMessage) => {
    if (m.kind === 'publish') {
      onPublish?.(m.message);
      void bus.publish(m.message).catch(() => undefined); // a closed bus at shutdown
    } else if (m.kind === 'subscribe')
      offs.push(bus.subscribe(m.type, (message) => port.postMessage({ kind: 'deliver', message })));
  });
  return {
    async close() {
      for (const off of await Promise.all(offs)) await off();
      port.close();
    },
  };
}
