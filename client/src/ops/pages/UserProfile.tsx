import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { orderNumber } from '@client/components/orders/order-number';
import * as users from '@shared/accounts/ops.routes';
import type { OpsUserProfile } from '@shared/accounts/ops.routes';
import { call } from '../api';
import { useT } from '../useT';
import { dateTime, money } from '../format';
import { href } from '../router';
import { ReasonDialog } from '../components/ReasonDialog';
import { CreditScoreDialog } from '../components/CreditScoreDialog';
import { depositStatusText, Facts } from './queue-details';
import { LedgerTable, OpsTable } from '../components/UserContext';
import { TwoFactorPanel } from '../components/TwoFactorPanel';

/**
 * One user at a glance, with support's actions: freeze, credit score, end one or every session,
 * and the two-factor reset of a user who lost the authenticator (TwoFactorPanel).
 */
export function UserProfile({ id }: { id: string }) {
  const { t } = useT();
  const key = ['user', id];
  // Read when opened and after an action here, not polled: every read of a profile is a line of
  // the access log (issue 33).
  const profile = useQuery({
    queryKey: key,
    queryFn: () => call(users.opsUser, { params: { id } }),
    refetchInterval: false,
    refetchOnWindowFocus: false,
  });
  const [dialog, setDialog] = useState<'freeze' | 'score' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const act = useUserAction(id, setNotice);
  if (!profile.data)
    return (
      <p className={profile.isError ? 'ops-alert' : 'ops-muted'}>
        {profile.isError ? t('common.loadFailed') : t('common.loading')}
      </p>
    );
  const { user, sessions } = profile.data;
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
            onClick={() => act.mutate({ action: 'sessions' })}
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
      <ProfileCards profile={profile.data} />
      <TwoFactorPanel
        userId={id}
        account={user.account}
        twoFactor={profile.data.twoFactor}
        setNotice={setNotice}
      />
      <ProfileActivity
        profile={profile.data}
        busy={act.isPending}
        onEndSession={(session) => act.mutate({ action: 'end-session', session })}
      />
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
              .mutateAsync({ action: user.frozen ? 'unfreeze' : 'freeze', reason })
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
            await act.mutateAsync({ action: 'credit-score', score, reason }).catch(() => undefined);
          }}
        />
      )}
    </div>
  );
}

/** Who the user is and what they hold. */
function ProfileCards({ profile: { user, balances } }: { profile: OpsUserProfile }) {
  const { t, lang } = useT();
  return (
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
  );
}

/**
 * What the user did: latest orders, deposits, withdrawals, ledger entries, and the sessions
 * (device, address), each with End.
 */
function ProfileActivity({
  profile: { orders, deposits, withdrawals, ledger, sessions },
  busy,
  onEndSession,
}: {
  profile: OpsUserProfile;
  busy: boolean;
  onEndSession: (session: string) => void;
}) {
  const { t, lang } = useT();
  const table = (heads: string[], rows: ReactNode[][], testId: string) => (
    <OpsTable heads={heads} rows={rows} testId={testId} />
  );
  return (
    <>
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
        [
          t('users.sessionId'),
          t('users.device'),
          t('users.address'),
          t('users.created'),
          t('users.lastSeen'),
          t('users.expires'),
          '',
        ],
        sessions.map((s) => [
          <code>{s.id}</code>,
          s.device,
          s.address ?? '--',
          dateTime(s.createdAt, lang),
          dateTime(s.lastSeenAt, lang),
          dateTime(s.expiresAt, lang),
          <button
            type="button"
            className="ops-btn ops-danger"
            data-testid={`session-end-${s.id}`}
            disabled={busy}
            onClick={() => onEndSession(s.id)}
          >
            {t('users.endSession')}
          </button>,
        ]),
        'user-sessions',
      )}
    </>
  );
}

type UserAction =
  | { action: 'sessions' }
  | { action: 'end-session'; session: string }
  | { action: 'freeze' | 'unfreeze'; reason: string }
  | { action: 'credit-score'; score: number; reason?: string };

/** Support's actions on a user (each audited by the server), and the notice each leaves. */
function useUserAction(id: string, setNotice: (text: string) => void) {
  const { t } = useT();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (a: UserAction): Promise<number | undefined> => {
      const params = { id };
      if (a.action === 'sessions')
        return (await call(users.revokeUserSessions, { params })).revoked;
      if (a.action === 'end-session') {
        await call(users.endUserSession, { params: { id, session: a.session } });
        return 1;
      }
      if (a.action === 'credit-score') {
        const { action: _action, ...body } = a;
        await call(users.setCreditScore, { params, body });
      } else {
        const body = { reason: a.reason };
        await (a.action === 'freeze'
          ? call(users.freezeUser, { params, body })
          : call(users.unfreezeUser, { params, body }));
      }
      return undefined;
    },
    onSuccess: (revoked, { action }) =>
      setNotice(
        action === 'sessions' || action === 'end-session'
          ? t('users.revoked', { count: revoked ?? 0 })
          : t(`users.done.${action}`),
      ),
    onError: () => setNotice(t('common.failed')),
    onSettled: () => client.invalidateQueries({ queryKey: ['user', id] }),
  });
}
