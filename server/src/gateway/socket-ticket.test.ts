import { describe, expect, it } from 'vitest';
import { createTicketSigner, RECHECK_AFTER_MS } from './socket-ticket';

const secret = 'a'.repeat(32);

describe('socket tickets', () => {
  it('verifies its own ticket: the user, the session, the expiry and the last check it carries', () => {
    const clock = { now: 1_000 };
    const signer = createTicketSigner(secret, 600_000, () => clock.now);
    const ticket = signer.issue('42', 'hash-1', 500)!;
    expect(ticket.expiresAt).toBe(601_000);
    expect(ticket.value).toMatch(/^[\w-]+\.[\w-]+$/); // base64url, payload.mac
    expect(signer.verify(ticket.value)).toEqual({
      userId: '42',
      tokenHash: 'hash-1',
      expiresAt: 601_000,
      checkedAt: 500,
    });
  });

  it('refuses an expired ticket', () => {
    const clock = { now: 1_000 };
    const signer = createTicketSigner(secret, 10_000, () => clock.now);
    const ticket = signer.issue('42', 'hash-1', 1_000)!;
    clock.now = 11_000;
    expect(signer.verify(ticket.value)).toBeNull();
  });

  it('stops vouching for a session the api has not checked for a day, however often renewed', () => {
    const clock = { now: 0 };
    const signer = createTicketSigner(secret, 600_000, () => clock.now);
    const checkedAt = 0;
    clock.now = RECHECK_AFTER_MS - 60_000; // renewed a minute before the day is over
    const last = signer.issue('42', 'hash-1', checkedAt)!;
    expect(last.expiresAt).toBe(RECHECK_AFTER_MS); // cut short at the day, not 10 min on
    expect(signer.verify(last.value)).not.toBeNull();
    clock.now = RECHECK_AFTER_MS;
    expect(signer.verify(last.value)).toBeNull();
    expect(signer.issue('42', 'hash-1', checkedAt)).toBeNull(); // no renewal either
  });

  it('refuses a ticket signed with another secret, or altered, or without its last check', () => {
    const signer = createTicketSigner(secret, 600_000);
    const other = createTicketSigner('b'.repeat(32), 600_000);
    expect(signer.verify(other.issue('42', 'hash-1', Date.now())!.value)).toBeNull();

    const [, mac] = signer.issue('42', 'hash-1', Date.now())!.value.split('.');
    const forged = Buffer.from(
      JSON.stringify({ u: '1', s: 'hash-1', e: Date.now() + 600_000, c: Date.now() }),
    ).toString('base64url');
    expect(signer.verify(`${forged}.${mac}`)).toBeNull();
  });

  it('refuses what is not a ticket at all', () => {
    const signer = createTicketSigner(secret, 600_000);
    for (const junk of ['', '.', 'abc', 'abc.', '.abc', 'x'.repeat(1000), 'a.b.c'])
      expect(signer.verify(junk)).toBeNull();
  });
});
