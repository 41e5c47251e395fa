import { randomBytes } from 'node:crypto';
import type { LoginAnswer, LoginBody } from '@shared/accounts/model';
import { AppError } from '@server/platform/http/errors';
import { dummyHash, verifyPassword } from '@server/platform/passwords';
import { addressKey, type Limiter } from '@server/platform/rate-limit';
import * as repo from './auth.repo';
import { presentUser, tooManyAttempts, type AuthContext } from './auth.context';
import { hashToken, SESSION_TTL_MS } from './auth.sessions';

/**
 * Spends a point at each gate in order, going on only while they let the attempt through. At a
 * refusal the gates before it get their points back: an attempt refused before its password is
 * checked is no guess, and must not fill the account's count for a stranger hammering a blocked
 * pair. Null when every gate let it through, else the ms until the refusing gate's window ends
 * (the lock-out's Retry-After, shown to the user as the time to wait).
 */
async function passGates(gates: [Limiter, string][]): Promise<number | null> {
  for (const [i, [limiter, key]] of gates.entries()) {
    const taken = await limiter.take(key);
    if (taken.ok) continue;
    await Promise.all(gates.slice(0, i).map(([l, k]) => l.giveBack(k)));
    return taken.retryAfterMs;
  }
  return null;
}

/**
 * The sign-in throttles an attempt passes before any secret of the account is checked (a login,
 * a reset): its address, its (account, address) pair by window and by day, the account as a
 * whole. 429 TOO_MANY_ATTEMPTS past one; else the pair's key (the address first: it holds no
 * spaces, so the key is unambiguous) and `passed`, which clears the pair and gives the address and
 * the account their point back once the secret was right.
 */
export async function signInGate(limiters: AuthContext['limiters'], account: string, ip: string) {
  const address = addressKey(ip);
  const name = account.toLowerCase();
  const pair = `${address} ${name}`;
  const wait = await passGates([
    [limiters.loginAddress, address],
    [limiters.loginPair, pair],
    [limiters.loginPairDaily, pair],
    [limiters.loginAccount, name],
  ]);
  if (wait !== null) throw tooManyAttempts(wait);
  const passed = () =>
    Promise.all([
      limiters.loginPair.reset(pair),
      limiters.loginPairDaily.reset(pair),
      limiters.loginAccount.giveBack(name),
      limiters.loginAddress.giveBack(address),
    ]);
  return { pair, passed };
}

/** Signing in with account and password: throttled, and a new session when it succeeds. */
export function signIn(
  { db, limiters, kycOf }: AuthContext,
  /** The device step (auth.two-factor.ts): the token a new device keeps, and the device's hash. */
  deviceStep: (
    userId: number,
    input: Pick<LoginBody, 'code' | 'device'>,
    seen: { pair: string; userAgent: string | null },
  ) => Promise<{ token?: string; deviceHash: string }>,
) {
  return {
    /**
     * The same answer, after the same work, for an unknown account and a wrong password. Every
     * attempt takes its points before the password is checked (atomically, so guesses sent at
     * once cannot slip past a limit together): from its address, its (account, address) pair and
     * the account as a whole (`authLimits`). A stranger's guesses thus block the stranger's pair,
     * not the owner elsewhere; only guessing spread over many addresses fills the account's
     * count. A success clears the pair's counts and gives the address and the account their
     * point back.
     */
    async login(
      input: LoginBody,
      ip: string,
      userAgent: string | null = null,
    ): Promise<LoginAnswer> {
      const { pair, passed } = await signInGate(limiters, input.account, ip);
      const user = await repo.userByAccount(db, input.account);
      const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), input.password);
      if (!user || !ok) throw new AppError(401, 'BAD_CREDENTIALS', 'Wrong account or password');
      // Told only to whoever knows the password: a guesser learns nothing of the account.
      if (user.frozen_at)
        throw new AppError(403, 'ACCOUNT_FROZEN', 'This account is frozen; contact support');
      await passed();
      const device = await deviceStep(user.id, input, { pair, userAgent });
      const token = randomBytes(32).toString('base64url');
      await repo.insertSession(db, hashToken(token), user.id, SESSION_TTL_MS, {
        userAgent,
        ip: addressKey(ip),
        deviceHash: device.deviceHash,
      });
      const answer = { token, user: presentUser(user, await kycOf(user.id)) };
      return device.token ? { ...answer, device: device.token } : answer;
    },
  };
}
