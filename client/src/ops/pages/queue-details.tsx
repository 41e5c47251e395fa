import type { ReactNode } from 'react';
import type { OpsKycSubmission } from '@shared/kyc/model';
import type { OpsDeposit, OpsWithdrawal } from '@shared/wallet/model';
import { useT } from '../useT';
import { dateTime, money } from '../format';
import { ZoomImage } from '../components/ZoomImage';
import type { OpsT } from '../useT';

/** A USDT transfer as the network shows it (a deposit's `chain`). */
type ChainFacts = NonNullable<OpsDeposit['chain']>;

export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="ops-facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value ?? '--'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A deposit's status, with its confirmations while the network confirms it: "Confirming 3/12". */
export function depositStatusText(t: OpsT, d: { status: string; chain?: ChainFacts }): string {
  const status = t(`users.reviewStatus.${d.status}`);
  return d.status === 'confirming' && d.chain
    ? `${status} ${d.chain.confirmations}/${d.chain.requiredConfirmations}`
    : status;
}

/**
 * What the network says of a USDT transfer: who sent it, to which address (the user's own),
 * in which block, how confirmed, and the transaction on a public explorer (a new tab).
 */
function chainRows(t: OpsT, chain: ChainFacts): [string, ReactNode][] {
  return [
    [t('review.fromAddress'), <code data-testid="deposit-from">{chain.fromAddress}</code>],
    [t('review.toAddress'), <code data-testid="deposit-to">{chain.toAddress}</code>],
    [t('review.blockNumber'), <span data-testid="deposit-block">{chain.blockNumber}</span>],
    [
      t('review.confirmations'),
      <span data-testid="deposit-confirmations">
        {chain.confirmations}/{chain.requiredConfirmations}
      </span>,
    ],
    [
      t('review.explorer'),
      <a
        href={chain.explorerUrl}
        target="_blank"
        rel="noopener noreferrer"
        data-testid="deposit-explorer"
      >
        {t('review.openExplorer')}
      </a>,
    ],
  ];
}

export function DepositDetail({ item }: { item: OpsDeposit }) {
  const { t, lang } = useT();
  return (
    <div className="ops-detail-split">
      {item.screenshotId ? (
        <ZoomImage
          id={item.screenshotId}
          alt={t('review.screenshot')}
          testId="deposit-screenshot"
        />
      ) : (
        <p className="ops-warning" role="note" data-testid="no-screenshot">
          {t(item.chain ? 'review.chainNoScreenshot' : 'review.noScreenshot')}
        </p>
      )}
      <Facts
        rows={[
          [t('review.amount'), <strong className="ops-big">{money(item.amount, lang)}</strong>],
          [t('review.channel'), t(`channels.${item.channel}`)],
          [
            t('users.status'),
            <span data-testid="deposit-status">{depositStatusText(t, item)}</span>,
          ],
          [
            t('review.source'),
            <span data-testid="deposit-source">{t(`review.sources.${item.source}`)}</span>,
          ],
          [t('review.user'), `${item.userAccount} (#${item.userId})`],
          [t('review.payerName'), item.payerName],
          [t('review.payerBank'), item.payerBank],
          [t('review.payerCard'), item.payerCard],
          [t('review.txId'), item.txId && <code data-testid="deposit-tx-id">{item.txId}</code>],
          ...(item.chain ? chainRows(t, item.chain) : []),
          ...(item.quantity !== undefined
            ? ([
                [t('review.quantity'), money(item.quantity, lang)],
                [t('review.rate'), item.rate],
              ] as [string, ReactNode][])
            : []),
          [t('review.remark'), item.remark],
          [t('review.submitted'), dateTime(item.createdAt, lang)],
        ]}
      />
    </div>
  );
}

export function WithdrawalDetail({ item }: { item: OpsWithdrawal }) {
  const { t, lang } = useT();
  const a = item.account;
  return (
    <Facts
      rows={[
        [t('review.amount'), <strong className="ops-big">{money(item.amount, lang)}</strong>],
        [t('review.user'), `${item.userAccount} (#${item.userId})`],
        ...((a.type === 'bank'
          ? [
              [t('review.holderName'), a.holderName],
              [t('review.bankName'), a.bankName],
              [t('review.cardNumber'), a.cardNumber],
              [t('review.branch'), a.branch],
              [t('review.bankAddress'), a.bankAddress],
              [t('review.nationality'), a.nationality],
            ]
          : [
              [t('review.network'), a.network],
              [t('review.address'), <code>{a.address}</code>],
            ]) as [string, ReactNode][]),
        [t('review.submitted'), dateTime(item.createdAt, lang)],
      ]}
    />
  );
}

export function KycDetail({ item }: { item: OpsKycSubmission }) {
  const { t, lang } = useT();
  return (
    <div className="ops-kyc">
      {item.sameIdNumber.length > 0 && (
        <div className="ops-warning" role="note" data-testid="same-id-warning">
          <strong>{t('review.sameIdTitle')}</strong>{' '}
          {item.sameIdNumber
            .map((o) => `${o.userAccount} (#${o.userId}, ${t(`kycStatus.${o.status}`)})`)
            .join(', ')}
        </div>
      )}
      <div className="ops-photos">
        <ZoomImage id={item.frontId} alt={t('review.frontId')} testId="kyc-front" />
        <ZoomImage id={item.backId} alt={t('review.backId')} testId="kyc-back" />
      </div>
      <Facts
        rows={[
          [t('review.typedName'), <strong>{item.name}</strong>],
          [t('review.idNumber'), <strong>{item.idNumber}</strong>],
          [t('review.nationality'), item.nationality],
          [t('review.user'), `${item.userAccount} (#${item.userId})`],
          [t('review.submitted'), dateTime(item.createdAt, lang)],
        ]}
      />
    </div>
  );
}
