import Bowser from 'bowser';

/**
 * A session's device as the security page and the sign-in message name it, from its user agent
 * ("Chrome · Android", "Safari · iOS"); "Unknown device" when it says nothing useful.
 */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent.slice(0, 300));
  const browser = parsed.browser.name;
  const os = parsed.os.name;
  const parts = [browser, os].filter((p): p is string => !!p);
  return parts.length ? parts.join(' · ') : 'Unknown device';
}
