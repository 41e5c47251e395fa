import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { User } from '@shared/accounts/model';
import type { PageTitleKey } from '@client/i18n/keys';
import { useFormat } from '@client/i18n/useFormat';
import { ConfirmDialog } from '@client/components/ConfirmDialog';
import { ChevronIcon } from '@client/components/icons';
import { PageHeader } from '@client/components/PageHeader';
import { PracticeCard } from '@client/components/orders/PracticeCard';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import {
  logout,
  refreshUser,
  showToast,
  useAccountSummary,
  useAppInfo,
  useUser,
} from '@client/state';
import { ProfileHelp } from './ProfileHelp';
import { TwoFactorPrompt } from './TwoFactorPrompt';
import { UserFigures } from './UserFigures';
import './user.css';
import { paths } from '@client/app/route-table';

/** A user read this recent is this visit's: the app's start has just read it. */
const VISIT_FRESH_MS = 10_000;

/** The personal centre menu of seed spec §2, in its order; the pages come with their features. */
const menu: { path: string; title: PageTitleKey; testId: string }[] = [
  { path: paths.recharge, title: 'pages.recharge', testId: 'menu-deposit' },
  {
    path: paths.withdraw,
    title: 'pages.withdraw',
    testId: 'menu-withdraw',
  },
  { path: paths.verify, title: 'pages.verify', testId: 'menu-verify' },
  { path: paths.orders, title: 'pages.orders', testId: 'menu-orders' },
  { path: paths.stats, title: 'pages.stats', testId: 'menu-stats' },
  {
    path: paths.depositList,
    title: 'pages.depositList',
    testId: 'menu-deposits',
  },
  {
    path: paths.withdrawList,
    title: 'pages.withdrawList',
    testId: 'menu-withdrawals',
  },
  {
    path: paths.moneyRecord,
    title: 'pages.moneyRecord',
    testId: 'menu-money-record',
  },
  { path: paths.account, title: 'pages.account', testId: 'menu-account' },
  { path: paths.security, title: 'pages.security', testId: 'menu-security' },
  { path: paths.settings, title: 'pages.settings', testId: 'menu-settings' },
];

function KycBadge({ status }: { status: User['kyc']['status'] }) {
  const { t } = useTranslation();
  const shown = status === 'verified' || status === 'pending' ? status : 'none';
  return (
    <span className={`kyc-badge kyc-badge--${shown}`} data-testid="kyc-badge" data-status={status}>
      {t(`account.user.kyc.${shown}`)}
    </span>
  );
}

// `verified` comes live from the account summary, so an approval shows without a reload.
function Profile({
  user,
  verified,
  children,
}: {
  user: User;
  verified: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  // SHOW_CREDIT_SCORE=false hides the score (and its explanation).
  const withScore = useAppInfo()?.showCreditScore ?? true;
  const copy = () => {
    navigator.clipboard.writeText(user.inviteCode).then(
      () => showToast(t('account.user.inviteCodeCopied')),
      () => showToast(t('common.copyFailed')),
    );
  };
  return (
    <>
      <section className="profile" aria-labelledby="profile-name">
        <span className="profile__avatar" aria-hidden="true">
          {(user.nickname || user.account).slice(0, 1).toUpperCase()}
        </span>
        <div className="profile__text">
          <h2 id="profile-name" className="profile__name">
            {user.nickname || user.account}
          </h2>
          <p className="profile__account">
            <span className="profile__label">{t('account.fields.account')}</span>{' '}
            <span data-testid="user-account">{user.account}</span>
          </p>
          <p className="profile__tags">
            <span className="profile__role">{t('account.user.ordinaryUser')}</span>
            <KycBadge status={verified ? 'verified' : user.kyc.status} />
            <ProfileHelp withScore={withScore} />
          </p>
        </div>
        {withScore && (
          <dl className="profile__score">
            <dt>{t('account.user.creditScore')}</dt>
            <dd className="num" data-testid="credit-score">
              {format.integer(user.creditScore)}
            </dd>
          </dl>
        )}
      </section>
      {children}
      <section className="invite-card" aria-labelledby="invite-title">
        <div>
          <h2 id="invite-title" className="invite-card__title">
            {t('account.user.myInviteCode')}
          </h2>
          <p className="invite-card__code" data-testid="my-invite-code">
            {user.inviteCode}
          </p>
        </div>
        <button
          type="button"
          className="button button--secondary"
          data-testid="copy-invite-code"
          aria-label={t('account.user.copyInviteCode')}
          onClick={copy}
        >
          {t('common.copy')}
        </button>
      </section>
      <p className="profile__since">
        {t('account.user.memberSince', { date: format.date(user.createdAt) })}
      </p>
    </>
  );
}

/** /pages/user/user (a tab): who is signed in, their own code, the menu, and logout. */
export function UserPage() {
  const { t } = useTranslation();
  const user = useUser();
  const summary = useAccountSummary();
  const [failed, setFailed] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const [asking, setAsking] = useState(false);
  const [leaving, setLeaving] = useState(false);

  // The credit score and verification state change on the server: fetch on every visit (a read
  // from the last few seconds, the app's start, serves this one).
  useEffect(() => {
    let shown = true;
    refreshUser(VISIT_FRESH_MS).then(
      () => {
        if (shown) setFailed(null);
      },
      (err: unknown) => {
        if (shown) setFailed(err);
      },
    );
    return () => {
      shown = false;
    };
  }, [attempt]);

  // No navigation here: signing out makes the route guard send this (guarded) page to the
  // login page, with the way back. A second navigation of our own would race with it.
  const confirmLogout = () => {
    setLeaving(true);
    void logout();
  };

  return (
    <>
      <PageHeader title={t('pages.user')} />
      {user ? (
        <Profile user={user} verified={summary.summary?.verified ?? false}>
          <UserFigures state={summary} />
          <TwoFactorPrompt />
          <PracticeCard place="user" />
        </Profile>
      ) : failed ? (
        <ErrorState error={failed} onRetry={() => setAttempt((n) => n + 1)} />
      ) : (
        <LoadingState />
      )}
      <nav className="menu" aria-label={t('account.user.menuLabel')}>
        <ul>
          {menu.map(({ path, title, testId }) => (
            <li key={path}>
              <Link to={path} className="menu__row" data-testid={testId}>
                <span>{t(title)}</span>
                <ChevronIcon className="menu__chevron" />
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="logout">
        <button
          type="button"
          className="button button--block button--secondary-danger"
          data-testid="logout"
          onClick={() => setAsking(true)}
        >
          {t('account.user.logout')}
        </button>
      </div>
      {asking && (
        <ConfirmDialog
          title={t('account.user.logout')}
          message={t('account.user.logoutConfirm')}
          confirmLabel={t('account.user.logout')}
          danger
          busy={leaving}
          onConfirm={confirmLogout}
          onCancel={() => setAsking(false)}
        />
      )}
    </>
  );
}
