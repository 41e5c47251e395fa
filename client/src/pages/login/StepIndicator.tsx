import { useTranslation } from 'react-i18next';

/** "Step 1 of 2" with a two-part bar; the text is what assistive tools read. */
export function StepIndicator({ step }: { step: 1 | 2 }) {
  const { t } = useTranslation();
  return (
    <div className="steps">
      <p className="steps__text">{t('account.register.step', { step, total: 2 })}</p>
      <div className="steps__bar" aria-hidden="true">
        <span className="steps__part steps__part--done" />
        <span className={`steps__part${step === 2 ? ' steps__part--done' : ''}`} />
      </div>
    </div>
  );
}
