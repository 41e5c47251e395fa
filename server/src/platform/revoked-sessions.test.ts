import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { eventually } from '@tests/support/wait';
import { recordingUserEvents } from './user-events';
import {
  memoryRevokedSessions,
  recordingRevocations,
  type RevokedSessions,
} from './revoked-sessions';

const log = pino({ level: 'silent' });

describe('revoked sessions', () => {
  it('remembers an ended session for the tickets’ lifetime, then forgets it', async () => {
    const clock = { now: 1_000 };
    const revoked = memoryRevokedSessions(10_000, () => clock.now);
    await revoked.record(['h1']);
    expect(await revoked.isRevoked('h1')).toBe(true);
    expect(await revoked.isRevoked('h2')).toBe(false);
    clock.now = 11_000;
    expect(await revoked.isRevoked('h1')).toBe(false);
  });

  it('records the revocation before the sockets are told', async () => {
    const events = recordingUserEvents();
    const order: string[] = [];
    const store: RevokedSessions = {
      record: (hashes) => {
        order.push(`recorded ${hashes.join()}`);
        return Promise.resolve();
      },
      isRevoked: () => Promise.resolve(false),
    };
    const wrapped = recordingRevocations(
      { ...events, endSessions: (h, r) => order.push(`told ${h.join()} ${r}`) },
      store,
      600_000,
      log,
    );
    wrapped.endSessions(['h1', 'h2'], 'logout');
    await eventually(() => order.length === 2, 5000, 'both steps');
    expect(order).toEqual(['recorded h1,h2', 'told h1,h2 logout']);
  });

  it('tells the sockets even when the record fails, and writes the record once it can', async () => {
    const events = recordingUserEvents();
    let failures = 1;
    const recorded: string[][] = [];
    const store: RevokedSessions = {
      record: (hashes) => {
        if (failures-- > 0) return Promise.reject(new Error('redis away'));
        recorded.push([...hashes]);
        return Promise.resolve();
      },
      isRevoked: () => Promise.resolve(false),
    };
    recordingRevocations(events, store, 600_000, log).endSessions(['h1'], 'revoked');
    await eventually(() => events.ended.length === 1, 5000, 'the sockets told');
    await eventually(() => recorded.length === 1, 5000, 'the record written on retry');
    expect(recorded).toEqual([['h1']]);
  });
});
