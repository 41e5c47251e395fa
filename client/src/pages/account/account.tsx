import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { WithdrawalAccount } from '@shared/wallet/model';
import { listWithdrawalAccounts } from '@client/api/wallet';
import { ChevronIcon } from '@client/components/icons';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { AccountLabel } from '@client/components/wallet/AccountLabel';
import { walletPaths } from '@client/components/wallet/routes';
import { ServiceLink } from '@client/components/wallet/ServiceLink';
import { useApiQuery } from '@client/state';
import { AccountHoldOf } from './AccountHold';
import { BindBankForm, BindCoinForm } from './bind-forms';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';

type Kind = WithdrawalAccount['type'];
const kinds: Kind[] = ['bank', 'coin'];

/** Once a type is bound, it changes only through customer service (seed spec §6). */
function BoundNotice({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  return (
    <p className="notice" role="status" data-testid="bound-notice">
      {t(kind === 'bank' ? 'wallet.account.bankBound' : 'wallet.account.coinBound')} <ServiceLink />
    </p>
  );
}

function AccountList({ accounts }: { accounts: WithdrawalAccount[] }) {
  const { t } = useTranslation();
  return (
    <div className="wallet-page">
      {kinds.map((kind) => {
        const bound = accounts.find((a) => a.type === kind);
        return (
          <section key={kind} className="card" aria-labelledby={`kind-${kind}`}>
            <h2 id={`kind-${kind}`} className="card__title">
              {t(kind === 'bank' ? 'wallet.account.bankCard' : 'wallet.account.coinAddress')}
            </h2>
            {bound ? (
              <>
                <Link
                  className="account-row"
                  to={`${walletPaths.accountDetail}?id=${bound.id}`}
                  data-testid={`account-${bound.id}`}
                >
                  <span>
                    <AccountLabel account={bound} withType={false} />
                  </span>
                  <ChevronIcon className="menu__chevron" />
                </Link>
                <AccountHoldOf account={bound} />
                <p className="card__note">
                  {t('wallet.account.changeVia')} <ServiceLink testId={`change-${kind}`} />
                </p>
              </>
            ) : (
              <>
                <p className="card__note">{t('wallet.account.notBound')}</p>
                <Link
                  className="button button--block"
                  to={`?bind=${kind}`}
                  data-testid={kind === 'bank' ? 'bind-bank' : 'bind-coin'}
                >
                  {t(kind === 'bank' ? 'wallet.account.bindBank' : 'wallet.account.bindCoin')}
                </Link>
              </>
            )}
          </section>
        );
      })}
      <p className="card__note">
        {t('wallet.account.serviceRule')} <ServiceLink />
      </p>
    </div>
  );
}

/**
 * /pages/account/account: the bound withdrawal accounts (one bank card, one coin address) and,
 * with `?bind=bank|coin`, the form that binds one. A type already bound is changed only through
 * customer service, and the page says so.
 */
export function AccountPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  // Loaded again on every visit of this page, ?bind= included: a form opened after a binding
  // elsewhere (another tab, the withdraw page) must know what is bound now.
  const accounts = useApiQuery(
    ['me', 'withdrawal-accounts', location.key, location.search],
    () => listWithdrawalAccounts(),
    { perVisit: true },
  );
  const bind = params.get('bind');
  const binding: Kind | null = bind === 'bank' || bind === 'coin' ? bind : null;

  const onBound = () => {
    // Back to where the form was opened from (this list, or the withdraw page).
    void (location.key === 'default'
      ? navigate(walletPaths.accounts, { replace: true })
      : navigate(-1));
  };

  return (
    <>
      <PageHeader title={t('pages.account')} back />
      {accounts.status === 'loading' ? (
        <LoadingState />
      ) : accounts.status === 'error' ? (
        <ErrorState error={accounts.error} onRetry={accounts.retry} />
      ) : binding ? (
        <div className="wallet-page">
          {accounts.data.some((a) => a.type === binding) ? (
            <BoundNotice kind={binding} />
          ) : binding === 'bank' ? (
            <BindBankForm onBound={onBound} />
          ) : (
            <BindCoinForm onBound={onBound} />
          )}
        </div>
      ) : (
        <AccountList accounts={accounts.data} />
      )}
    </>
  );
}
