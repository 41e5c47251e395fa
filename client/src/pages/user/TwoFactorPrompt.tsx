import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '@client/app/route-table';
import { useTwoFactorPrompt } from '@client/state/two-factor-prompt';
import './two-factor-prompt.css';

/**
 * "Protect your money": two-factor sign-in, strongly encouraged once a first deposit is credited
 * (issue 39), on the personal centre where the balance is, and on the deposit records where a
 * trader waits for the credit (it appears there as the credit arrives). "Turn on two-factor"
 * opens the security page; "Not now" hides it for this user on this device.
 */
export function TwoFactorPrompt() {
  const { shown, dismiss } = useTwoFactorPrompt();
  return shown ? <TwoFactorPromptCard onLater={dismiss} /> : null;
}

/** The card itself; apart from its state for the tests. */
export function TwoFactorPromptCard({ onLater }: { onLater: () => void }) {
  const { t } = useTranslation();
  return (
    <section
      className="tfa-prompt"
      role="status"
      aria-labelledby="tfa-prompt-title"
      data-testid="tfa-prompt"
    >
      <h2 id="tfa-prompt-title" className="tfa-prompt__title">
        {t('account.twoFactorPrompt.title')}
      </h2>
      <p className="tfa-prompt__text">{t('account.twoFactorPrompt.text')}</p>
      <div className="tfa-prompt__actions">
        <Link to={paths.security} className="button" data-testid="tfa-prompt-turn-on">
          {t('account.twoFactorPrompt.turnOn')}
        </Link>
        <button
          type="button"
          className="button button--secondary"
          data-testid="tfa-prompt-later"
          onClick={onLater}
        >
          {t('account.twoFactorPrompt.later')}
        </button>
      </div>
    </section>
  );
}
