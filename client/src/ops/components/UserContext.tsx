import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import * as users from '@shared/accounts/ops.routes';
import type { LedgerEntry } from '@shared/accounts/ops.routes';
import { call, OpsError } from '../api';
import { useT } from '../useT';
import { dateTime, money } from '../format';
import { depositStatusText } from '../pages/queue-details';

/** A small table of the console: headings, rows of cells, an empty line when there are none. */
export function OpsTable({
  heads,
  rows,
  testId,
  empty,
  numeric = false,
}: {
  heads: string[];
  rows: ReactNode[][];
  testId: string;
  empty?: string;
  numeric?: boolean;
}) {
  return (
    <div className="ops-table-wrap">
      <table className={numeric ? 'ops-table ops-numeric' : 'ops-table'} data-testid={testId}>
        <thead>
          <tr>
            {heads.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells, i) => (
            <tr key={i}>
              {cells.map((c, j) => (
                <td key={j}>{c}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && empty && <p className="ops-muted">{empty}</p>}
    </div>
  );
}

/** Ledger entries: what moved the real balance, newest first. */
export function LedgerTable({ entries, testId }: { entries: LedgerEntry[]; testId: string }) {
  const { t, lang } = useT();
  return (
    <OpsTable
      testId={testId}
      empty={t('users.noEntries')}
      heads={[
        t('users.entryType'),
        t('review.amount'),
        t('users.balanceAfter'),
        t('users.ref'),
        t('users.created'),
      ]}
      rows={entries.map((e) => [
        t(`users.kinds.${e.type}`, { defaultValue: e.type }),
        <span className={e.amount < 0 ? 'ops-neg' : 'ops-pos'}>{money(e.amount, lang)}</span>,
        money(e.balanceAfter, lang),
        e.ref ?? '--',
        dateTime(e.createdAt, lang),
      ])}
    />
  );
}

/**
 * Beside a deposit or a withdrawal under review: the user's identity state and freeze, balance,
 * recent deposits (with the one under review marked), withdrawals and ledger entries.
 */
export function ReviewContext({
  userId,
  kind,
  current,
}: {
  userId: string;
  kind: 'deposits' | 'withdrawals';
  current: string;
}) {
  const { t, lang } = useT();
  // Read once per item shown, not polled: every read of a user's data is a line of the access
  // log (issue 33), and the context does not change while the item waits.
  const context = useQuery({
    queryKey: ['review-context', userId],
    queryFn: () => call(users.opsReviewContext, { params: { id: userId } }),
    refetchInterval: false,
    refetchOnWindowFocus: false,
  });
  const c = context.data;
  if (!c) {
    // 404: the user has nothing under review any more (decided meanwhile).
    const gone = context.error instanceof OpsError && context.error.status === 404;
    return (
      <p className={context.isError ? 'ops-alert' : 'ops-muted'}>
        {gone ? t('context.gone') : context.isError ? t('common.loadFailed') : t('common.loading')}
      </p>
    );
  }
  const status = (s: string) => t(`users.reviewStatus.${s}`);
  return (
    <section className="ops-context" aria-labelledby="context-title" data-testid="review-context">
      <h2 id="context-title">{t('context.title')}</h2>
      <p>
        {t('context.identity')}: <strong>{t(`kycStatus.${c.user.kycStatus}`)}</strong> ·{' '}
        {t('users.available')}: <strong>{money(c.balances.available, lang)}</strong> ·{' '}
        {t('users.withdrawHold')}: {money(c.balances.withdrawHold, lang)}
      </p>
      {c.user.frozen && (
        <p className="ops-warning" role="note">
          {t('context.frozen', { reason: c.user.frozenReason ?? '--' })}
        </p>
      )}
      <h3>{t(kind === 'deposits' ? 'context.recentDeposits' : 'context.recentWithdrawals')}</h3>
      {kind === 'deposits' ? (
        <OpsTable
          testId="context-deposits"
          empty={t('context.noDeposits')}
          heads={[
            t('review.amount'),
            t('review.channel'),
            t('users.status'),
            t('review.submitted'),
          ]}
          rows={c.deposits.map((d) => [
            money(d.amount, lang),
            t(`channels.${d.channel}`),
            d.id === current ? (
              <strong>{depositStatusText(t, d)} ←</strong>
            ) : (
              depositStatusText(t, d)
            ),
            dateTime(d.createdAt, lang),
          ])}
        />
      ) : (
        <OpsTable
          testId="context-withdrawals"
          empty={t('context.noWithdrawals')}
          heads={[t('review.amount'), t('users.status'), t('review.submitted')]}
          rows={c.withdrawals.map((w) => [
            money(w.amount, lang),
            w.id === current ? <strong>{status(w.status)} ←</strong> : status(w.status),
            dateTime(w.createdAt, lang),
          ])}
        />
      )}
      <h3>{t('users.ledger')}</h3>
      <LedgerTable entries={c.ledger} testId="context-ledger" />
    </section>
  );
}
