import { useTranslation } from 'react-i18next';
import { signOf } from '@client/components/orders/format';
import { formatSignedMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import type { TradeMode } from '@shared/orders/model';
import { useAccountSummary } from '@client/state';

function Pnl({ label, value, testId }: { label: string; value: number | null; testId: string }) {
  const { lang } = useFormat();
  const sign = signOf(value);
  return (
    <div className="pnl__item">
      <dt>{label}</dt>
      <dd className={`pnl__value pnl__value--${sign} num`} data-testid={testId}>
        {sign !== 'flat' && <span aria-hidden="true">{sign === 'up' ? '▲ ' : '▼ '}</span>}
        {formatSignedMoney(value, lang)}
      </dd>
    </div>
  );
}

/** Account P&L and today's P&L of one mode, live from the `balance` events. */
export function PnlSummary({ mode = 'real' }: { mode?: TradeMode }) {
  const { t } = useTranslation();
  const summary = useAccountSummary();
  const s = mode === 'practice' ? summary.summary?.practice : summary.summary;
  return (
    <section className="pnl" aria-label={t('orders.list.pnlTotal')}>
      <dl className="pnl__list">
        <Pnl label={t('orders.list.pnlTotal')} value={s?.pnlTotal ?? null} testId="pnl-total" />
        <Pnl label={t('orders.list.pnlToday')} value={s?.pnlToday ?? null} testId="pnl-today" />
      </dl>
      {summary.status === 'error' && (
        <button type="button" className="pnl__retry" onClick={summary.retry}>
          {t('common.retry')}
        </button>
      )}
    </section>
  );
}
