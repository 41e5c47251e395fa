import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SocketTicket } from '@shared/socket';

/**
 * Socket tickets (docs/DECISIONS.md, Socket tickets): what a gateway hands a signed-in socket so
 * that its next connection, to this gateway or any other with the same SOCKET_TICKET_SECRET, is
 * admitted without asking the api. A ticket names the user, the session (its token hash, so it
 * is only good together with that token, and its revocation can be looked up) and when it
 * expires; it is `<payload>.<mac>`, both base64url, the MAC an HMAC-SHA256 of the payload.
 */
export interface TicketClaims {
  userId: string;
  tokenHash: string;
  expiresAt: number;
  /**
   * When the api last vouched for the session (the token check that started this chain of
   * tickets). Renewals carry it over; past RECHECK_AFTER_MS no ticket of the chain is good, and
   * the next connection is checked by its token again, so an expired session cannot live on in
   * renewed tickets.
   */
  checkedAt: number;
}

/** How long a chain of renewed tickets may stand in for the api's check of a session. */
export const RECHECK_AFTER_MS = 24 * 3_600_000;

export interface TicketSigner {
  readonly ttlMs: number;
  /** A ticket, or null when the session's last check is too old to vouch for it any more. */
  issue(userId: string, tokenHash: string, checkedAt: number): SocketTicket | null;
  /**
   * The ticket's claims when its MAC is ours, it has not expired and its session was checked
   * within RECHECK_AFTER_MS; null otherwise.
   */
  verify(value: string): TicketClaims | null;
}

/** Longer than any ticket we issue: anything beyond is not ours, and is not even hashed. */
const MAX_TICKET_LENGTH = 400;

export function createTicketSigner(
  secret: string,
  ttlMs: number,
  now: () => number = Date.now,
): TicketSigner {
  const mac = (payload: string) => createHmac('sha256', secret).update(payload).digest();
  return {
    ttlMs,
    issue(userId, tokenHash, checkedAt) {
      const recheckAt = checkedAt + RECHECK_AFTER_MS;
      if (recheckAt <= now()) return null;
      const expiresAt = Math.min(now() + ttlMs, recheckAt);
      const payload = Buffer.from(
        JSON.stringify({ u: userId, s: tokenHash, e: expiresAt, c: checkedAt }),
      ).toString('base64url');
      return { value: `${payload}.${mac(payload).toString('base64url')}`, expiresAt };
    },
    verify(value) {
      if (value.length > MAX_TICKET_LENGTH) return null;
      const dot = value.indexOf('.');
      if (dot < 1) return null;
      const payload = value.slice(0, dot);
      const given = Buffer.from(value.slice(dot + 1), 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const claims = parseClaims(Buffer.from(payload, 'base64url').toString());
      if (!claims || claims.expiresAt <= now()) return null;
      return claims.checkedAt + RECHECK_AFTER_MS > now() ? claims : null;
    },
  };
}

/** The claims of a payload we signed ourselves; still checked, as a secret may be shared wrongly. */
function parseClaims(json: string): TicketClaims | null {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { u, s, e, c } = raw as Record<string, unknown>;
  if (typeof u !== 'string' || typeof s !== 'string') return null;
  if (typeof e !== 'number' || typeof c !== 'number') return null;
  return { userId: u, tokenHash: s, expiresAt: e, checkedAt: c };
}
