import { useTranslation } from 'react-i18next';
import { copyText, downloadText } from './security-queries';

/**
 * The ten recovery codes, shown this once (only their hashes are kept): a warning to save them
 * now, Copy, Download as a text file, and Done, which closes them for good.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = codes.join('\n');
  return (
    <div className="tfa-codes">
      <p className="callout" role="alert">
        <span className="callout__icon" aria-hidden="true">
          !
        </span>
        <span>{t('security.twoFactor.codesWarning')}</span>
      </p>
      <ol className="tfa-codes__list num" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code} className="tfa-codes__code">
            {code}
          </li>
        ))}
      </ol>
      <div className="button-row">
        <button
          type="button"
          className="button button--secondary"
          data-testid="recovery-copy"
          onClick={() => copyText(t, text)}
        >
          {t('security.copy')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          data-testid="recovery-download"
          onClick={() => downloadText('recovery-codes.txt', `${text}\n`)}
        >
          {t('security.twoFactor.download')}
        </button>
      </div>
      <button
        type="button"
        className="button button--block"
        data-testid="recovery-done"
        onClick={onDone}
      >
        {t('security.twoFactor.done')}
      </button>
    </div>
  );
}
