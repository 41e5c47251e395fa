import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { publishOnly } from './redis';

describe('publishOnly (the user-event emitter’s client)', () => {
  it('sends a failed publish again, in order, once the connection is ready', async () => {
    let up = false;
    const sent: string[] = [];
    let ready = () => undefined as void;
    const client = publishOnly(
      {
        publish: (channel: string, message: string) => {
          if (!up) return Promise.reject(new Error('Connection is closed.'));
          sent.push(`${channel}:${message}`);
          return Promise.resolve(1);
        },
        on: ((event: string, listener: () => void) => {
          if (event === 'ready') ready = listener;
        }) as never,
      },
      pino({ level: 'silent' }),
    );
    // Never rejects: the emitter does not handle its publishes' promises.
    expect(await client.publish('a', '1')).toBe(0);
    expect(await client.publish('a', '2')).toBe(0);
    expect(sent).toEqual([]);
    up = true;
    ready();
    await Promise.resolve();
    expect(sent).toEqual(['a:1', 'a:2']);
    // Sent once: a second ready has nothing left to send.
    ready();
    await Promise.resolve();
    expect(sent).toEqual(['a:1', 'a:2']);
  });
});
