import { beforeEach, describe, expect, it, vi } from 'vitest';
import common from '@client/i18n/locales/common/en.json';
import account from '@client/i18n/locales/account/en.json';

/** A Storage in memory: the signed-in user and the answers of "Not now" on this device. */
const data = new Map<string, string>();
const storage: Storage = {
  get length() {
    return data.size;
  },
  key: (i) => [...data.keys()][i] ?? null,
  getItem: (k) => data.get(k) ?? null,
  setItem: (k, v) => void data.set(k, String(v)),
  removeItem: (k) => void data.delete(k),
  clear: () => data.clear(),
};
Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });

const user = {
  id: '7',
  account: 'trader7',
  phone: '123456',
  nickname: '',
  inviteCode: 'AAAA2222',
  creditScore: 100,
  kyc: { status: 'verified' },
  createdAt: 0,
};

interface Seen {
  /** Two-factor on or off as read; absent: not read (loading, failed, offline). */
  twoFactor?: boolean;
  /** Whether a deposit has been credited, as read; absent: not read. */
  credited?: boolean;
  /** Users who answered "Not now" on this device. */
  dismissedBy?: string[];
}

/**
 * The personal centre's prompt as it renders with what has been read: a fresh copy of the app's
 * modules each time (its storage is read when its state is first made), its cache seeded.
 */
async function render({ twoFactor, credited, dismissedBy }: Seen): Promise<string> {
  vi.resetModules();
  data.clear();
  data.set('userInfo', JSON.stringify(user));
  if (dismissedBy) data.set('twoFactorPromptDismissed', JSON.stringify(dismissedBy));
  const { renderToStaticMarkup } = await import('react-dom/server');
  const { MemoryRouter } = await import('react-router-dom');
  const { createInstance } = await import('i18next');
  const { I18nextProvider } = await import('react-i18next');
  const { queryClient } = await import('@client/state/query-client');
  const { twoFactorKey } = await import('@client/state/two-factor');
  const { creditedKey } = await import('@client/state/two-factor-prompt');
  const { TwoFactorPrompt } = await import('./TwoFactorPrompt');
  const i18n = createInstance();
  await i18n.init({
    lng: 'en',
    resources: { en: { translation: { ...common, ...account } } },
    interpolation: { escapeValue: false },
  });
  if (twoFactor !== undefined)
    queryClient.setQueryData(twoFactorKey, {
      enabled: twoFactor,
      pending: false,
      recoveryCodesLeft: twoFactor ? 10 : 0,
    });
  if (credited !== undefined) queryClient.setQueryData(creditedKey, credited);
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <TwoFactorPrompt />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

describe('the prompt to turn two-factor on after the first deposit', () => {
  beforeEach(() => data.clear());

  it('shows with two-factor off and a deposit credited: to the security page, or not now', async () => {
    const html = await render({ twoFactor: false, credited: true });
    expect(html).toContain('data-testid="tfa-prompt"');
    expect(html).toContain('Protect your money with two-factor authentication');
    const turnOn = /<a([^>]*)>Turn on two-factor<\/a>/.exec(html)?.[1] ?? '';
    expect(turnOn).toContain('data-testid="tfa-prompt-turn-on"');
    expect(turnOn).toContain('href="/pages/security/security"');
    expect(html).toMatch(/<button[^>]*data-testid="tfa-prompt-later"[^>]*>Not now<\/button>/);
  });

  it('does not show with two-factor on', async () => {
    expect(await render({ twoFactor: true, credited: true })).toBe('');
  });

  it('does not show before a deposit is credited (practice money only, or one under review)', async () => {
    expect(await render({ twoFactor: false, credited: false })).toBe('');
  });

  it('does not show while either is unread (loading, failed, offline): no flash', async () => {
    expect(await render({ credited: true })).toBe('');
    expect(await render({ twoFactor: false })).toBe('');
    expect(await render({})).toBe('');
  });

  it('stays away once this user answered "Not now" on this device, not for another user', async () => {
    expect(await render({ twoFactor: false, credited: true, dismissedBy: ['7'] })).toBe('');
    expect(await render({ twoFactor: false, credited: true, dismissedBy: ['8'] })).toContain(
      'data-testid="tfa-prompt"',
    );
  });
});
