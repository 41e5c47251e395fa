import type {
  AntiPhishing,
  RecoveryCodes,
  SecuritySession,
  TwoFactorEnrolment,
  TwoFactorState,
} from '@shared/security/model';
import * as security from '@shared/security/routes';
import { call } from './client';

export type { AntiPhishing, RecoveryCodes, SecuritySession, TwoFactorEnrolment, TwoFactorState };

/** Whether two-factor sign-in is on (its code is then asked for money moves and password changes). */
export function getTwoFactor(signal?: AbortSignal): Promise<TwoFactorState> {
  return call(security.twoFactor, {}, { signal });
}

/** A new secret (pending until `confirmTwoFactor`); taken with the transaction password. */
export function enrolTwoFactor(tradePassword: string): Promise<TwoFactorEnrolment> {
  return call(security.enrol, { body: { tradePassword } });
}

/** Turns two-factor on with a first code: ten recovery codes, shown this once. */
export function confirmTwoFactor(code: string): Promise<RecoveryCodes> {
  return call(security.confirm, { body: { code } });
}

export function disableTwoFactor(code: string): Promise<void> {
  return call(security.disable, { body: { code } });
}

/** A pending support reset of two-factor (the user said they lost it), or null. */
export async function getTwoFactorReset(signal?: AbortSignal) {
  return (await call(security.twoFactorReset, {}, { signal })).reset;
}

/** Calls a pending support reset of two-factor off. */
export function cancelTwoFactorReset(): Promise<void> {
  return call(security.cancelTwoFactorReset, {});
}

export async function getSessions(signal?: AbortSignal): Promise<SecuritySession[]> {
  return (await call(security.sessions, {}, { signal })).items;
}

export function endSession(id: string): Promise<void> {
  return call(security.endSession, { params: { id } });
}

export function endOtherSessions(): Promise<{ ended: number }> {
  return call(security.endOthers, {});
}

export function getAntiPhishing(signal?: AbortSignal): Promise<AntiPhishing> {
  return call(security.phrase, {}, { signal });
}

export function setAntiPhishing(
  phrase: string | null,
  tradePassword: string,
): Promise<AntiPhishing> {
  return call(security.setPhrase, { body: { phrase, tradePassword } });
}

/** The phrase for the sign-in page: the server tells it only to a device that signed in before. */
export function signInPhrase(account: string, device: string): Promise<AntiPhishing> {
  return call(security.signInPhrase, { body: { account, device } });
}

export function resetPassword(body: {
  account: string;
  code: string;
  tradePassword: string;
  newPassword: string;
  confirmPassword: string;
}): Promise<void> {
  return call(security.reset, { body });
}
