import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@client/app/route-table';
import { Link, useNavigate } from 'react-router-dom';
import { minorToDecimal } from '@shared/amount-input';
import type { Deposit } from '@shared/wallet/model';
import { listDeposits } from '@client/api/wallet';
import { useFormat } from '@client/i18n/useFormat';
import { PageHeader } from '@client/components/PageHeader';
import { PagedList } from '@client/components/wallet/PagedList';
import { PrivateImage } from '@client/components/wallet/PrivateImage';
import { DepositProgress } from '@client/components/wallet/DepositProgress';
import { ExplorerLink } from '@client/components/wallet/ExplorerLink';
import { depositStatusKey, depositTone } from '@client/components/wallet/deposit-status';
import { StatusTag } from '@client/components/wallet/StatusTag';
import { depositChannelInfo, usdtClaimPath, walletPaths } from '@client/components/wallet/routes';
import { useMoney } from '@client/components/wallet/useMoney';
import { queryKeys } from '@client/state';
import { usePagedQuery } from '@client/state/paged';
import type { Resubmission } from '../recharge/deposit-parts';
import { TwoFactorPrompt } from '../user/TwoFactorPrompt';
import '@client/components/wallet/wallet.css';

/**
 * The form of a rejected deposit, pre-filled from it, that submits a new deposit linked to it
 * (`resubmitOf`; API.md, Deposits): the bank page with the amount in the query, or the USDT claim
 * form; the details travel in the navigation state.
 */
function resubmitLink(d: Deposit): { to: string; state: { resubmit: Resubmission } } {
  return {
    to:
      d.channel === 'bank'
        ? `${depositChannelInfo.bank.path}?amount=${d.amount}&resubmitOf=${d.id}`
        : usdtClaimPath(d.channel, d.id),
    state: {
      resubmit: {
        id: d.id,
        payerBank: d.payerBank,
        payerCard: d.payerCard,
        payerName: d.payerName,
        remark: d.remark,
        txId: d.txId,
      },
    },
  };
}

function DepositRow({ deposit: d, resubmitted }: { deposit: Deposit; resubmitted: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const format = useFormat();
  const [showShot, setShowShot] = useState(false);
  return (
    <>
      <div className="record__line">
        <span className="record__title">{t(depositChannelInfo[d.channel].title)}</span>
        <StatusTag
          tone={depositTone[d.status]}
          text={t(depositStatusKey(d))}
          testId={`deposit-status-${d.id}`}
        />
      </div>
      <div className="record__line">
        <span className="record__meta">{format.dateTime(d.createdAt)}</span>
        <span className="record__amount" data-testid={`deposit-amount-${d.id}`}>
          {money.money(d.amount)}
        </span>
      </div>
      {d.quantity !== undefined && (
        <p className="record__meta num">
          {t('wallet.deposit.quantityRate', {
            quantity: format.decimal(minorToDecimal(d.quantity)),
            rate: d.rate ?? '1',
          })}
        </p>
      )}
      <DepositProgress deposit={d} testId={`deposit-progress-${d.id}`} />
      {d.status === 'dropped' && (
        <p className="record__meta" data-testid={`deposit-dropped-${d.id}`}>
          {t('wallet.deposit.droppedNote')}
        </p>
      )}
      {d.remark && (
        <p className="record__meta">{t('wallet.deposit.remarkShown', { remark: d.remark })}</p>
      )}
      {d.status === 'rejected' && d.reason && (
        <p className="record__reason" data-testid={`deposit-reason-${d.id}`}>
          {t('wallet.reason', { reason: d.reason })}
        </p>
      )}
      {d.txId && (
        <p className="record__meta record__tx" data-testid={`deposit-tx-${d.id}`}>
          {t('wallet.deposit.txIdShown', { txId: d.txId })}
        </p>
      )}
      {d.chain && (
        <p className="record__meta">
          <ExplorerLink deposit={d} testId={`deposit-explorer-${d.id}`} />
        </p>
      )}
      {d.status === 'rejected' && !resubmitted && (
        <button
          type="button"
          className="button button--block"
          data-testid={`resubmit-${d.id}`}
          onClick={() => {
            const link = resubmitLink(d);
            void navigate(link.to, { state: link.state });
          }}
        >
          {t('wallet.deposit.resubmit')}
        </button>
      )}
      {d.screenshotId && (
        <button
          type="button"
          className="button button--secondary button--small record__toggle"
          aria-expanded={showShot}
          onClick={() => setShowShot((v) => !v)}
        >
          {t(showShot ? 'wallet.deposit.hideScreenshot' : 'wallet.deposit.showScreenshot')}
        </button>
      )}
      {showShot && d.screenshotId && (
        <PrivateImage id={d.screenshotId} alt={t('wallet.deposit.screenshot')} />
      )}
    </>
  );
}

/** /pages/withdraw-list/withdraw-open: the user's deposits, newest first, with their review state. */
export function DepositListPage() {
  const { t } = useTranslation();
  // Read on every visit, again on every `balance` or `message` event and when shown again;
  // changed in place by every `deposit` event (query-bridge.ts).
  const paged = usePagedQuery(queryKeys.deposits, (cursor) => listDeposits({ cursor }), {
    refetchOnShow: true,
    perVisit: true,
  });
  // A rejected deposit is submitted again once: its resubmission, when loaded, hides the action
  // (the server refuses a second one with 409 ALREADY_RESUBMITTED anyway).
  const resubmitted = new Set(paged.items.flatMap((d) => d.resubmittedFrom ?? []));
  return (
    <>
      <PageHeader title={t('pages.depositList')} back>
        <Link className="section__link" to={walletPaths.recharge} data-testid="deposit">
          {t('wallet.deposit.new')}
        </Link>
      </PageHeader>
      <TwoFactorPrompt />
      <div className="list-wrap">
        <PagedList
          paged={paged}
          label={t('pages.depositList')}
          testId="deposit-list"
          empty={{
            text: t('empty.records'),
            action: { label: t('empty.deposit'), to: paths.recharge },
          }}
        >
          {(d) => <DepositRow deposit={d} resubmitted={resubmitted.has(d.id)} />}
        </PagedList>
      </div>
    </>
  );
}
