/**
 * The token the server gives a device at a sign-in it did not know (with two-factor on, the code
 * is then asked only once there). Kept per account in localStorage (`device:<account>`, lower
 * case) and sent with every later sign-in of that account; it also lets the sign-in page ask for
 * the account's anti-phishing phrase, which the server tells only to such a device.
 */
const keyOf = (account: string) => `device:${account.trim().toLowerCase()}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function deviceTokenOf(account: string): string | null {
  if (account.trim() === '') return null;
  try {
    return storage()?.getItem(keyOf(account)) ?? null;
  } catch {
    return null;
  }
}

export function keepDeviceToken(account: string, token: string): void {
  try {
    storage()?.setItem(keyOf(account), token);
  } catch {
    // Private mode or a full storage: the code is asked again next time, nothing worse.
  }
}
