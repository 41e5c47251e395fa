import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Channel } from '@shared/socket';
import { createChannelHub, type ChannelTransport, type SubscribeResult } from './channel-hub';

class FakeTransport implements ChannelTransport {
  connected = false;
  log: string[] = [];
  answer: SubscribeResult = { ok: true };
  private listeners: (() => void)[] = [];

  isConnected() {
    return this.connected;
  }
  subscribe(channels: Channel[]) {
    this.log.push(`sub ${channels.join(',')}`);
    return Promise.resolve(this.answer);
  }
  unsubscribe(channels: Channel[]) {
    this.log.push(`unsub ${channels.join(',')}`);
  }
  onConnect(listener: () => void) {
    this.listeners.push(listener);
  }
  connect() {
    this.connected = true;
    this.listeners.forEach((l) => l());
  }
}

function setup(connected = true) {
  const transport = new FakeTransport();
  transport.connected = connected;
  const hub = createChannelHub(transport, { lingerMs: 1000, retryMs: 2000 });
  const advance = (ms: number) => vi.advanceTimersByTime(ms);
  return { transport, hub, advance };
}

describe('channel hub', () => {
  // RxJS's async scheduler runs on setInterval, which the fake clock drives.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('subscribes on the first holder and unsubscribes after the last, once', () => {
    const { transport, hub, advance } = setup();
    const a = hub.hold('market').subscribe();
    const b = hub.hold('market').subscribe();
    expect(transport.log).toEqual(['sub market']);
    a.unsubscribe();
    advance(5000);
    expect(transport.log).toEqual(['sub market']);
    b.unsubscribe();
    advance(999);
    expect(transport.log).toEqual(['sub market']);
    advance(1);
    expect(transport.log).toEqual(['sub market', 'unsub market']);
  });

  it('keeps a channel that is taken again while lingering', () => {
    const { transport, hub, advance } = setup();
    hub.hold('ticks:BTCUSDT').subscribe().unsubscribe();
    advance(500);
    const again = hub.hold('ticks:BTCUSDT').subscribe();
    advance(5000);
    expect(transport.log).toEqual(['sub ticks:BTCUSDT']);
    again.unsubscribe();
    advance(1000);
    expect(transport.log).toEqual(['sub ticks:BTCUSDT', 'unsub ticks:BTCUSDT']);
  });

  it('waits for the connection and resubscribes every held channel on reconnect', () => {
    const { transport, hub } = setup(false);
    hub.hold('market').subscribe();
    hub.hold('ticks:ETHUSDT').subscribe();
    expect(transport.log).toEqual([]);
    transport.connect();
    expect(transport.log).toEqual(['sub market,ticks:ETHUSDT']);
    transport.connected = false;
    transport.connect();
    expect(transport.log).toEqual(['sub market,ticks:ETHUSDT', 'sub market,ticks:ETHUSDT']);
  });

  it('does not resubscribe released channels', () => {
    const { transport, hub, advance } = setup();
    hub.hold('market').subscribe().unsubscribe();
    advance(1000);
    transport.log = [];
    transport.connect();
    expect(transport.log).toEqual([]);
  });

  it('publishes the active channels', () => {
    const { hub, advance } = setup();
    const seen: string[][] = [];
    hub.active$.subscribe((set) => seen.push([...set]));
    const held = hub.hold('market').subscribe();
    held.unsubscribe();
    advance(1000);
    expect(seen).toEqual([[], ['market'], []]);
  });

  it('asks again after a rate-limit refusal while the channel is still held', async () => {
    const { transport, hub, advance } = setup();
    transport.answer = { error: { code: 'RATE_LIMITED' } };
    hub.hold('market').subscribe();
    await Promise.resolve();
    transport.answer = { ok: true };
    advance(2000);
    expect(transport.log).toEqual(['sub market', 'sub market']);
  });

  it('does not ask again after a final refusal', async () => {
    const { transport, hub, advance } = setup();
    transport.answer = { error: { code: 'NOT_FOUND' } };
    hub.hold('ticks:NOPE').subscribe();
    await Promise.resolve();
    advance(10_000);
    expect(transport.log).toEqual(['sub ticks:NOPE']);
  });
});
