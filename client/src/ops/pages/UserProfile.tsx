import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { orderNumber } from '@client/components/orders/order-number';
import { api } from '../api';
import { useT } from '../useT';
import { dateTime, money } from '../format';
import { href } from '../router';
import { ReasonDialog } from '../components/ReasonDialog';
import { CreditScoreDialog } from '../components/CreditScoreDialog';
import type { OpsUserProfile } from '../types';
import { depositStatusText, Facts } from './queue-details';
import { LedgerTable, OpsTable } from '../components/UserContext';

/** One user at a glance, with support's actions: freeze, credit score, end sessions. */
export function UserProfile({ id }: { id: string }) {
  const { t, lang } = useT();
  const client = useQueryClient();
  const key = ['user', id];
  // Read when opened and after an action here, not polled: every read of a profile is a line of
  // the access log (issue 33).
  const profile = useQuery({
    queryKey: key,
    queryFn: () => api<OpsUserProfile>(`/ops/users/${encodeURIComponent(id)}`),
    refetchInterval: false,
    refetchOnWindowFocus: false,
  });
  const [dialog, setDialog] = useState<'freeze' | 'score' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const act = useMutation({
    mutationFn: ({ path, method, body }: { path: string; method: string; body?: unknown }) =>
      api<{ revoked?: number }>(`/ops/users/${encodeURIComponent(id)}/${path}`, { method, body }),
    onSuccess: (answer, { path }) =>
      setNotice(
        path === 'sessions'
          ? t('users.revoked', { count: answer?.revoked ?? 0 })
          : t(`users.done.${path}`),
      ),
    onError: () => setNotice(t('common.failed')),
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
  if (!profile.data)
    return (
      <p className={profile.isError ? 'ops-alert' : 'ops-muted'}>
        {profile.isError ? t('common.loadFailed') : t('common.loading')}
      </p>
    );
  const { user, balances, orders, deposits, withdrawals, ledger, sessions } = profile.data;
  const table = (heads: string[], rows: ReactNode[][], testId: string) => (
    <OpsTable heads={heads} rows={rows} testId={testId} />
  );
  return (
    <div className="ops-page" data-testid="user-profile">
      <header className="ops-page-head">
        <a href={href('users')}>← {t('users.back')}</a>
        <h1>
          {user.account} <span className="ops-muted">#{user.id}</span>
        </h1>
        {user.frozen && <span className="ops-tag ops-tag-danger">{t('users.frozen')}</span>}
        <span className="ops-actions ops-push">
          <button
            type="button"
            className={`ops-btn ${user.frozen ? '' : 'ops-danger'}`}
            onClick={() => setDialog('freeze')}
          >
            {user.frozen ? t('users.unfreeze') : t('users.freeze')}
          </button>
          <button type="button" className="ops-btn" onClick={() => setDialog('score')}>
            {t('users.setScore')}
          </button>
          <button
            type="button"
            className="ops-btn"
            disabled={act.isPending || sessions.length === 0}
            onClick={() => act.mutate({ path: 'sessions', method: 'DELETE' })}
          >
            {t('users.endSessions')}
          </button>
        </span>
      </header>
      {notice && (
        <p className="ops-notice" role="status">
          {notice}
        </p>
      )}
      <div className="ops-columns">
        <section className="ops-card">
          <h2>{t('users.profile')}</h2>
          <Facts
            rows={[
              [t('users.phone'), user.phone],
              [t('users.nickname'), user.nickname],
              [t('users.creditScore'), user.creditScore],
              [t('users.kyc'), t(`kycStatus.${user.kycStatus}`)],
              [
                t('users.state'),
                user.frozen
                  ? `${t('users.frozen')}${user.frozenReason ? ` — ${user.frozenReason}` : ''}`
                  : t('users.active'),
              ],
              [t('users.created'), dateTime(user.createdAt, lang)],
            ]}
          />
        </section>
        <section className="ops-card">
          <h2>{t('users.balances')}</h2>
          <Facts
            rows={[
              [t('users.available'), <strong>{money(balances.available, lang)}</strong>],
              [t('users.inOrders'), money(balances.inOrders, lang)],
              [t('users.withdrawHold'), money(balances.withdrawHold, lang)],
              [t('users.savings'), money(balances.savings, lang)],
            ]}
          />
        </section>
      </div>
      <h2>{t('users.orders')}</h2>
      {table(
        [
          t('users.orderNo'),
          t('users.product'),
          t('users.direction'),
          t('review.amount'),
          t('users.status'),
          t('users.pnl'),
          t('review.submitted'),
        ],
        orders.map((o) => [
          orderNumber(o.id),
          o.productId,
          t(`users.${o.direction}`),
          money(o.amount, lang),
          t(`users.orderStatus.${o.status}`),
          money(o.pnl, lang),
          dateTime(o.createdAt, lang),
        ]),
        'user-orders',
      )}
      <div className="ops-columns">
        <section>
          <h2>{t('users.deposits')}</h2>
          {table(
            [t('review.amount'), t('review.channel'), t('users.status'), t('review.submitted')],
            deposits.map((d) => [
              money(d.amount, lang),
              t(`channels.${d.channel}`),
              depositStatusText(t, d),
              dateTime(d.createdAt, lang),
            ]),
            'user-deposits',
          )}
        </section>
        <section>
          <h2>{t('users.withdrawals')}</h2>
          {table(
            [t('review.amount'), t('users.status'), t('review.submitted')],
            withdrawals.map((w) => [
              money(w.amount, lang),
              t(`users.reviewStatus.${w.status}`),
              dateTime(w.createdAt, lang),
            ]),
            'user-withdrawals',
          )}
        </section>
      </div>
      <h2>{t('users.ledger')}</h2>
      <LedgerTable entries={ledger} testId="user-ledger" />
      <h2>{t('users.sessions')}</h2>
      {table(
        [t('users.sessionId'), t('users.created'), t('users.lastSeen'), t('users.expires')],
        sessions.map((s) => [
          <code>{s.id}</code>,
          dateTime(s.createdAt, lang),
          dateTime(s.lastSeenAt, lang),
          dateTime(s.expiresAt, lang),
        ]),
        'user-sessions',
      )}
      {dialog === 'freeze' && (
        <ReasonDialog
          title={t(user.frozen ? 'users.unfreezeTitle' : 'users.freezeTitle', {
            user: user.account,
          })}
          reasonLabel={t('users.reasonAudit')}
          confirm={user.frozen ? t('users.unfreeze') : t('users.freeze')}
          max={500}
          onClose={() => setDialog(null)}
          onConfirm={async (reason) => {
            setDialog(null);
            await act
              .mutateAsync({
                path: user.frozen ? 'unfreeze' : 'freeze',
                method: 'POST',
                body: { reason },
              })
              .catch(() => undefined);
          }}
        />
      )}
      {dialog === 'score' && (
        <CreditScoreDialog
          current={user.creditScore}
          onClose={() => setDialog(null)}
          onConfirm={async (score, reason) => {
            setDialog(null);
            await act
              .mutateAsync({ path: 'credit-score', method: 'POST', body: { score, reason } })
              .catch(() => undefined);
          }}
        />
      )}
    </div>
  );
}
