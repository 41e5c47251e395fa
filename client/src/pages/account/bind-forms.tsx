import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CoinNetwork, WithdrawalAccount } from '@shared/wallet/model';
import { bindWithdrawalAccount, getWithdrawalHolder } from '@client/api/wallet';
import { messageText } from '@client/components/error-text';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { TwoFactorCodeField } from '@client/components/form/TwoFactorCodeField';
import { useForm } from '@client/components/form/useForm';
import { checked, isBlank, maxLengthOf, required } from '@client/components/form/validation';
import { CountrySelect } from '@client/components/wallet/CountrySelect';
import { walletPaths } from '@client/components/wallet/routes';
import { TradePasswordField } from '@client/components/wallet/TradePasswordField';
import { bankAccountForm, needsBranch } from '@shared/wallet/bank-account';
import {
  accountNumberCheck,
  accountNumberLabel,
  accountNumberReadBack,
  empty,
  msg,
  textWording,
} from '@client/components/wallet/rules';
import { coinAddressPatterns, withdrawalAccountBody } from '@shared/wallet/requests';
import { tradePasswordSchema } from '@shared/accounts/model';
import { z } from 'zod';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { showToast, useApiQuery } from '@client/state';
import { codeField, codeRefusal, codeRule, useTwoFactorCode } from '@client/state/two-factor';

type Bound = (account: WithdrawalAccount) => void;

/** Read before linking, not after: once linked, only customer support changes it. */
function ServiceWarning() {
  const { t } = useTranslation();
  return (
    <p className="callout callout--warning" role="note" data-testid="service-warning">
      <span className="callout__icon" aria-hidden="true">
        ⚠
      </span>
      <span>{t('wallet.account.serviceRule')}</span>
    </p>
  );
}

const [bankBody, coinBody] = withdrawalAccountBody.options;
const bank = bankBody.shape;
const tradePassword = checked(tradePasswordSchema, 'account.rules.tradePassword');

/** The bank form's rules; the two-factor code is checked while `asked()` (two-factor on). */
const bankSchema = (asked: () => boolean) =>
  z
    .object({
      holderName: checked(bank.holderName, textWording, empty),
      nationality: required(empty),
      bankName: checked(bank.bankName, textWording, empty),
      branch: z.string(),
      cardNumber: checked(bank.cardNumber, textWording, empty),
      bankAddress: checked(bank.bankAddress, textWording, null),
      tradePassword,
      code: codeRule(asked),
    })
    .superRefine((v, ctx) => {
      // The branch is asked only where the holder's country addresses transfers to one (JP).
      if (!needsBranch(v.nationality)) return;
      const branch = checked(bank.branch, textWording, empty).safeParse(v.branch);
      for (const issue of branch.error?.issues ?? [])
        ctx.addIssue({ code: 'custom', path: ['branch'], message: issue.message });
    })
    .superRefine(accountNumberCheck);

/** Binds, with the code on its field when the server refuses it. */
async function bindWith(body: Parameters<typeof bindWithdrawalAccount>[0]) {
  try {
    return await bindWithdrawalAccount(body);
  } catch (error) {
    throw codeRefusal(error);
  }
}

/**
 * Bind a bank account: holder name, nationality, bank, the branch where the holder's country
 * addresses transfers to one (JP), the number in the form of the holder's country (IBAN, card,
 * account number), bank address (optional), and the transaction password that confirms it
 * (where withdrawals go is a money decision).
 */
export function BindBankForm({ onBound }: { onBound: Bound }) {
  const holder = useApiQuery(['me', 'withdrawal-holder'], () => getWithdrawalHolder(), {
    perVisit: true,
  });
  if (holder.status === 'loading') return <LoadingState />;
  if (holder.status === 'error') return <ErrorState error={holder.error} onRetry={holder.retry} />;
  if (holder.data.verifyFirst) return <VerifyFirst />;
  return <BankForm onBound={onBound} verifiedName={holder.data.holderName} />;
}

/**
 * Where withdrawals need a verified identity, a bank account is bound in that identity's name
 * only (the server refuses another): before verification there is no name to bind it in.
 */
function VerifyFirst() {
  const { t } = useTranslation();
  return (
    <div className="form card" data-testid="bank-verify-first">
      <h2 className="card__title">{t('wallet.account.bindBank')}</h2>
      <p className="notice">
        {t('wallet.account.verifyFirst')}{' '}
        <Link to={walletPaths.verify} data-testid="kyc-link">
          {t('wallet.withdraw.goVerify')}
        </Link>
      </p>
    </div>
  );
}

/**
 * The holder is the user: with a verified identity its name is filled in and read-only
 * (DECISIONS.md, Holder name from the identity check); before, the user types it.
 */
function BankForm({ onBound, verifiedName }: { onBound: Bound; verifiedName: string | null }) {
  const { t } = useTranslation();
  // With two-factor on, binding where withdrawals go also takes a code.
  const twoFactor = useTwoFactorCode();
  const schema = useMemo(() => bankSchema(twoFactor.asked), [twoFactor.asked]);
  const form = useForm(
    {
      holderName: verifiedName ?? '',
      nationality: '',
      bankName: '',
      branch: '',
      cardNumber: '',
      bankAddress: '',
      tradePassword: '',
      code: '',
    },
    schema,
  );
  // The number's form follows the holder's country: an IBAN, a Chinese card, an account number.
  const numberForm = bankAccountForm(form.values.nationality);
  const withBranch = needsBranch(form.values.nationality);
  // An IBAN is longer than the input on a phone: read back whole, a digit missed at its end is
  // seen before the money goes astray.
  const readBack = accountNumberReadBack(form.values.nationality, form.values.cardNumber);
  const send = form.onSubmit(async (v) => {
    const account = await bindWith({
      type: 'bank',
      holderName: v.holderName.trim(),
      nationality: v.nationality,
      bankName: v.bankName.trim(),
      branch: (withBranch && v.branch.trim()) || undefined,
      cardNumber: v.cardNumber.trim(),
      bankAddress: v.bankAddress.trim() || undefined,
      tradePassword: v.tradePassword,
      ...codeField(twoFactor.on, v.code),
    });
    showToast(t('common.operationSucceeded'));
    onBound(account);
  });
  return (
    <form id={form.formId} className="form card" onSubmit={send} noValidate data-testid="bank-form">
      <h2 className="card__title">{t('wallet.account.bindBank')}</h2>
      <FormError message={form.formError} />
      <TextField
        {...form.field('holderName')}
        label={t('wallet.fields.holderName')}
        testId="holder-name"
        autoComplete="name"
        maxLength={maxLengthOf(bank.holderName)}
        readOnly={verifiedName !== null}
        hint={verifiedName !== null ? t('wallet.account.holderFromKyc') : undefined}
      />
      <CountrySelect
        {...form.field('nationality')}
        label={t('wallet.fields.nationality')}
        testId="nationality"
      />
      <TextField
        {...form.field('bankName')}
        label={t('wallet.fields.bankName')}
        testId="bank-name"
        autoComplete="off"
        maxLength={maxLengthOf(bank.bankName)}
      />
      {withBranch && (
        <TextField
          {...form.field('branch')}
          label={t('wallet.fields.branch')}
          testId="branch"
          autoComplete="off"
          maxLength={maxLengthOf(bank.branch)}
        />
      )}
      <TextField
        {...form.field('cardNumber')}
        label={t(accountNumberLabel[numberForm])}
        testId="card-number"
        inputMode={numberForm === 'iban' ? 'text' : 'numeric'}
        autoComplete="off"
        maxLength={maxLengthOf(bank.cardNumber)}
        readBack={readBack ? { label: t('wallet.account.checkNumber'), text: readBack } : undefined}
      />
      <TextField
        {...form.field('bankAddress')}
        label={t('wallet.fields.bankAddressOptional')}
        testId="bank-address"
        autoComplete="off"
        maxLength={maxLengthOf(bank.bankAddress)}
      />
      <TradePasswordField
        {...form.field('tradePassword')}
        hint={t('wallet.account.confirmWithTradePassword')}
      />
      {twoFactor.on && <TwoFactorCodeField {...form.field('code')} />}
      <ServiceWarning />
      <SubmitButton busy={form.submitting}>{t('wallet.account.bind')}</SubmitButton>
    </form>
  );
}

const networks: CoinNetwork[] = ['TRC20', 'ERC20'];

const coinSchema = (asked: () => boolean) =>
  z
    .object({
      network: required(empty),
      address: required(empty),
      tradePassword,
      code: codeRule(asked),
    })
    .superRefine((v, ctx) => {
      const network = v.network as CoinNetwork | '';
      if (!network || isBlank(v.address) || coinAddressPatterns[network].test(v.address.trim()))
        return;
      const message = msg(network === 'TRC20' ? 'wallet.rules.trc20' : 'wallet.rules.erc20');
      ctx.addIssue({ code: 'custom', path: ['address'], message });
    });

/**
 * Bind a coin address: the network, an address in that network's format, and the transaction
 * password that confirms it.
 */
export function BindCoinForm({ onBound }: { onBound: Bound }) {
  const { t } = useTranslation();
  const networkId = useId();
  const twoFactor = useTwoFactorCode();
  const schema = useMemo(() => coinSchema(twoFactor.asked), [twoFactor.asked]);
  const form = useForm({ network: 'TRC20', address: '', tradePassword: '', code: '' }, schema);
  const network = form.field('network');
  const send = form.onSubmit(async (v) => {
    const account = await bindWith({
      type: 'coin',
      network: v.network as CoinNetwork,
      address: v.address.trim(),
      tradePassword: v.tradePassword,
      ...codeField(twoFactor.on, v.code),
    });
    showToast(t('common.operationSucceeded'));
    onBound(account);
  });
  return (
    <form id={form.formId} className="form card" onSubmit={send} noValidate data-testid="coin-form">
      <h2 className="card__title">{t('wallet.account.bindCoin')}</h2>
      <FormError message={form.formError} />
      <div className={`field${network.error ? ' field--invalid' : ''}`}>
        <label className="field__label" htmlFor={networkId}>
          {t('wallet.fields.network')}
        </label>
        <select
          id={networkId}
          className="field__input"
          data-testid="network"
          value={network.value}
          aria-invalid={network.error ? true : undefined}
          onChange={(event) => network.onValue(event.target.value)}
          onBlur={network.onBlur}
        >
          {networks.map((n) => (
            <option key={n} value={n}>
              USDT-{n}
            </option>
          ))}
        </select>
        {network.error && <p className="field__error">{messageText(t, network.error)}</p>}
      </div>
      <TextField
        {...form.field('address')}
        label={t('wallet.fields.address')}
        hint={t(form.values.network === 'ERC20' ? 'wallet.rules.erc20' : 'wallet.rules.trc20')}
        testId="address"
        autoComplete="off"
        autoCapitalize="off"
        maxLength={maxLengthOf(coinBody.shape.address)}
      />
      <TradePasswordField
        {...form.field('tradePassword')}
        hint={t('wallet.account.confirmWithTradePassword')}
      />
      {twoFactor.on && <TwoFactorCodeField {...form.field('code')} />}
      <ServiceWarning />
      <SubmitButton busy={form.submitting}>{t('wallet.account.bind')}</SubmitButton>
    </form>
  );
}
