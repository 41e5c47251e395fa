import { useTranslation } from 'react-i18next';
import { paths } from '@client/app/route-table';
import { useSearchParams } from 'react-router-dom';
import { transferKinds, type TransferKind } from '@shared/wallet/model';
import { listFundRecords } from '@client/api/wallet';
import { useFormat } from '@client/i18n/useFormat';
import { ChoicePicker } from '@client/components/ChoicePicker';
import { PageHeader } from '@client/components/PageHeader';
import { amountTone } from '@client/components/wallet/amount-tone';
import { PagedList } from '@client/components/wallet/PagedList';
import { useMoney } from '@client/components/wallet/useMoney';
import { queryKeys } from '@client/state';
import { usePagedQuery } from '@client/state/paged';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';

const isKind = (v: string | null): v is TransferKind =>
  (transferKinds as readonly string[]).includes(v ?? '');

/**
 * /pages/money-record/money-record: every movement of the available balance, newest first, with
 * its type, signed amount, the balance after it and the time; `?type=` filters by type.
 */
export function MoneyRecordPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const format = useFormat();
  const [params, setParams] = useSearchParams();
  const type = isKind(params.get('type')) ? (params.get('type') as TransferKind) : undefined;
  // Read on every visit, again on every `balance` or `message` event (query-bridge.ts) and when
  // shown again.
  const paged = usePagedQuery(
    queryKeys.fundRecords(type ?? ''),
    (cursor) => listFundRecords({ cursor, type }),
    { refetchOnShow: true, perVisit: true },
  );

  return (
    <>
      <PageHeader title={t('pages.moneyRecord')} back />
      <div className="tabs-row">
        <ChoicePicker<TransferKind | ''>
          label={t('wallet.record.filter')}
          hideLabel
          testId="ledger-type"
          value={type ?? ''}
          choices={[
            { value: '', label: t('wallet.record.allTypes') },
            ...transferKinds.map((k) => ({ value: k, label: t(`wallet.kind.${k}`) })),
          ]}
          onValue={(value) => setParams(value ? { type: value } : {}, { replace: true })}
        />
      </div>
      <div className="list-wrap">
        <PagedList
          paged={paged}
          label={t('pages.moneyRecord')}
          testId="ledger-list"
          empty={{
            text: t('empty.records'),
            action: { label: t('empty.deposit'), to: paths.recharge },
          }}
        >
          {(r) => (
            <div data-testid={`ledger-row-${r.id}`} data-type={r.type} data-amount={r.amount}>
              <div className="record__line">
                <span className="record__title">{t(`wallet.kind.${r.type}`)}</span>
                <span
                  className={`record__amount ${amountTone(r.type, r.amount)}`}
                  data-testid={`ledger-amount-${r.id}`}
                >
                  {money.signed(r.amount)}
                </span>
              </div>
              <div className="record__line">
                <span className="record__meta">{format.dateTime(r.createdAt)}</span>
                <span className="record__meta num" data-testid={`ledger-balance-${r.id}`}>
                  {t('wallet.record.balanceAfter', { amount: money.plain(r.balanceAfter) })}
                </span>
              </div>
            </div>
          )}
        </PagedList>
      </div>
    </>
  );
}
