import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/api/client';
import { getContentPage } from '@client/api/savings';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { useApiQuery } from '@client/state';
import { parseRulesText } from './rules-text';
import './savings.css';

/**
 * /pages/money/detail: the savings rules, a content page (`savings-rules`) in the reader's
 * language. While the server has none (404), a plain "not published yet" with a retry.
 */
export function SavingsRulesPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const rules = useApiQuery(['page', 'savings-rules', lang], () =>
    getContentPage('savings-rules', lang),
  );
  return (
    <>
      <PageHeader title={t('pages.savingsRules')} back />
      {rules.status === 'ready' ? (
        <article className="savings-rules" data-testid="savings-rules" lang={rules.data.lang}>
          <h2>{rules.data.title}</h2>
          {parseRulesText(rules.data.body).map((block, i) =>
            block.kind === 'heading' ? (
              <h3 key={i}>{block.text}</h3>
            ) : block.kind === 'list' ? (
              <ul key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>{item}</li>
                ))}
              </ul>
            ) : (
              <p key={i}>{block.text}</p>
            ),
          )}
        </article>
      ) : rules.status === 'error' ? (
        rules.error instanceof ApiError && rules.error.status === 404 ? (
          <div className="state" role="status" data-testid="savings-rules-missing">
            <p>{t('savings.rulesMissing')}</p>
            <button type="button" className="button" onClick={rules.retry}>
              {t('common.retry')}
            </button>
          </div>
        ) : (
          <ErrorState error={rules.error} onRetry={rules.retry} />
        )
      ) : (
        <LoadingState />
      )}
    </>
  );
}
