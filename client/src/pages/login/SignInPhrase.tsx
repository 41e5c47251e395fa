import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signInPhrase } from '@client/api/security';
import { deviceTokenOf } from './device-token';
import './code-field.css';

/** How long the account must stay unchanged before its phrase is asked for. */
const DEBOUNCE_MS = 400;

/**
 * "Your anti-phishing phrase: …" under the account field, once an account this device signed in
 * to before is typed: the server tells the phrase only to such a device, so a copy of this page
 * elsewhere cannot show it. Nothing while typing, for an unknown account, or when none is set.
 */
export function SignInPhrase({ account }: { account: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<{ account: string; phrase: string } | null>(null);
  const trimmed = account.trim();

  useEffect(() => {
    const device = deviceTokenOf(trimmed);
    if (!device) return;
    let live = true;
    const timer = setTimeout(() => {
      signInPhrase(trimmed, device).then(
        ({ phrase }) => {
          if (live) setShown(phrase ? { account: trimmed, phrase } : null);
        },
        () => {
          if (live) setShown(null);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [trimmed]);

  // A phrase belongs to the account it was asked for: typing another hides it at once.
  if (!shown || shown.account.toLowerCase() !== trimmed.toLowerCase()) return null;
  return (
    <p className="sign-in-phrase" data-testid="sign-in-phrase" aria-live="polite">
      {t('security.signIn.phrase', { phrase: shown.phrase })}
    </p>
  );
}
