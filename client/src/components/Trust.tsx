import { useTranslation } from 'react-i18next';
import { useAppInfo } from '@client/state';
import './brand.css';

/**
 * The risk warning: RISK_WARNING as the operator wrote it, in every language, when set; else the
 * app's sentence in the user's language (DECISIONS.md, Brand and trust). `line`: one small line
 * for the docked ticket, the app's short sentence there (a configured text is cut to the width,
 * its whole text in the title).
 */
export function RiskNote({ line = false }: { line?: boolean }) {
  const { t } = useTranslation();
  const configured = useAppInfo()?.riskWarning;
  const text = configured ?? t('trust.riskWarning');
  // On the ticket's one line, the app's own short sentence, which fits a 360 px phone whole.
  const shown = line && !configured ? t('trust.riskShort') : text;
  return (
    <p
      className={line ? 'risk-note risk-note--line' : 'risk-note'}
      data-testid="risk-warning"
      title={line ? text : undefined}
    >
      {shown}
    </p>
  );
}

/** Who runs the platform (LEGAL_ENTITY, LEGAL_REGISTRATION) and the risk warning, in a box. */
export function LegalNotice() {
  const { t } = useTranslation();
  const info = useAppInfo();
  return (
    <section className="legal" aria-label={t('trust.title')} data-testid="legal-notice">
      {info && (
        <>
          <p className="legal__entity" data-testid="legal-entity">
            {t('trust.operatedBy', { entity: info.legalEntity })}
          </p>
          <p data-testid="legal-registration">{info.legalRegistration}</p>
        </>
      )}
      <RiskNote />
    </section>
  );
}
