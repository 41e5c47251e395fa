import { useTranslation } from 'react-i18next';
import type { Deposit } from '@shared/wallet/model';
import { listDeposits } from '@client/api/wallet';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { DepositProgress } from '@client/components/wallet/DepositProgress';
import { ExplorerLink } from '@client/components/wallet/ExplorerLink';
import { depositStatusKey, depositTone } from '@client/components/wallet/deposit-status';
import { StatusTag } from '@client/components/wallet/StatusTag';
import { useMoney } from '@client/components/wallet/useMoney';
import { useFormat } from '@client/i18n/useFormat';
import { queryKeys } from '@client/state';
import { useOffline } from '@client/state/market';
import { usePagedQuery } from '@client/state/paged';
import type { CoinChannel } from './usdt-address';
import '@client/components/wallet/records.css';

/** The latest transfers of the channel shown here; the deposit details list them all. */
const SHOWN = 10;

/** What a transfer's state means for the user, beside its tag (none while confirming: the bar). */
function StateNote({ deposit: d }: { deposit: Deposit }) {
  const { t } = useTranslation();
  const note =
    d.status === 'dropped'
      ? t('wallet.deposit.droppedNote')
      : d.status === 'pending'
        ? t('wallet.deposit.heldNote')
        : d.status === 'rejected' && d.reason
          ? t('wallet.reason', { reason: d.reason })
          : null;
  if (!note) return null;
  return (
    <p
      className={d.status === 'rejected' ? 'record__reason' : 'record__meta'}
      data-testid={`incoming-note-${d.id}`}
    >
      {note}
    </p>
  );
}

function IncomingItem({ deposit: d, required }: { deposit: Deposit; required?: number }) {
  const { t } = useTranslation();
  const money = useMoney();
  const format = useFormat();
  return (
    <li className="record" data-testid={`incoming-item-${d.id}`} data-status={d.status}>
      <div className="record__line">
        <span className="record__amount" data-testid={`incoming-amount-${d.id}`}>
          {money.money(d.amount)}
        </span>
        <StatusTag
          tone={depositTone[d.status]}
          text={t(depositStatusKey(d))}
          testId={`incoming-status-${d.id}`}
        />
      </div>
      <DepositProgress deposit={d} required={required} testId={`incoming-progress-${d.id}`} />
      <StateNote deposit={d} />
      <div className="record__line">
        <span className="record__meta">{format.dateTime(d.createdAt)}</span>
        <ExplorerLink deposit={d} testId={`incoming-explorer-${d.id}`} />
      </div>
    </li>
  );
}

/**
 * The user's latest transfers on this channel, live: the `deposit` events change the cached
 * deposits in place (state/deposits.ts), so a transfer appears when the network sees it and
 * counts its confirmations up to its credit with no reload. The deposit details page shares the
 * cache. Offline, what is shown stays, with a word that it may be behind.
 */
export function IncomingTransfers({ details }: { details: CoinChannel }) {
  const { t } = useTranslation();
  const offline = useOffline();
  const paged = usePagedQuery(queryKeys.deposits, (cursor) => listDeposits({ cursor }), {
    refetchOnShow: true,
    perVisit: true,
  });
  const items = paged.items.filter((d) => d.channel === details.channel).slice(0, SHOWN);
  return (
    <section className="usdt-incoming" aria-labelledby="incoming-title">
      <h2 id="incoming-title" className="card__title usdt-incoming__title">
        {t('wallet.deposit.incomingTitle')}
      </h2>
      {offline && (
        <p className="card__note" role="status" data-testid="incoming-offline">
          {t('wallet.deposit.incomingOffline')}
        </p>
      )}
      {paged.status === 'loading' ? (
        <LoadingState />
      ) : paged.status === 'error' ? (
        <ErrorState error={paged.error} onRetry={paged.retry} />
      ) : items.length === 0 ? (
        <p className="card usdt-incoming__empty" data-testid="incoming-empty">
          {t('wallet.deposit.incomingEmpty')}
        </p>
      ) : (
        <ul
          className="record-list usdt-incoming__list"
          aria-label={t('wallet.deposit.incomingTitle')}
          data-testid="incoming-list"
        >
          {items.map((d) => (
            <IncomingItem key={d.id} deposit={d} required={details.arrival.confirmations} />
          ))}
        </ul>
      )}
    </section>
  );
}
