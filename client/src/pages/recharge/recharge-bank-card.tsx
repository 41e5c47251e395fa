import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { bankAccountForm } from '@shared/wallet/bank-account';
import type { DepositChannel } from '@shared/wallet/model';
import { FormError, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { checked, maxLengthOf, picked, ruled } from '@client/components/form/validation';
import { CopyRow } from '@client/components/wallet/CopyButton';
import { groupedDigits } from '@client/components/wallet/money';
import type { PickedImage } from '@client/components/wallet/ImagePicker';
import {
  accountNumberLabel,
  depositAmountRule,
  msg,
  textWording,
  wholeAmountInput,
} from '@client/components/wallet/rules';
import { useMoney } from '@client/components/wallet/useMoney';
import {
  ArrivalNote,
  ChannelPage,
  CreditNote,
  DemoNote,
  ResubmitNote,
  useAmountParam,
  useDepositSubmit,
  useResubmission,
} from './deposit-parts';
import { DepositFormEnd } from './DepositFormEnd';
import { useDepositDraft, useDraftSaving } from './deposit-draft';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';
import { depositBody } from '@shared/wallet/requests';
import { z } from 'zod';

type BankChannel = Extract<DepositChannel, { channel: 'bank' }>;

const payer = depositBody.options[0].shape;

/** The fields a draft keeps; `amountFrom`: the amount step's figure the amount started from. */
const draftFields = [
  'amount',
  'amountFrom',
  'payerBank',
  'payerCard',
  'payerName',
  'remark',
] as const;

const bankSchema = (details: BankChannel) =>
  z.object({
    amount: ruled(depositAmountRule(details)),
    payerBank: checked(payer.payerBank, textWording),
    payerCard: checked(payer.payerCard, msg('wallet.rules.cardNumber')),
    payerName: checked(payer.payerName, textWording),
    screenshot: picked<PickedImage>(msg('wallet.rules.screenshot')),
    remark: z.string(),
  });

/** The platform's account to transfer to, each detail with its copy button. */
function PlatformAccount({ details }: { details: BankChannel }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="receiving-title">
      <h2 id="receiving-title" className="card__title">
        {t('wallet.deposit.platformAccount')}
      </h2>
      {details.demo && <DemoNote what="account" />}
      <dl className="copy-list">
        <CopyRow
          label={t('wallet.fields.bankName')}
          value={details.bankName}
          testId="copy-bank-name"
        />
        {details.branch && (
          <CopyRow label={t('wallet.fields.branch')} value={details.branch} testId="copy-branch" />
        )}
        <CopyRow
          label={t(accountNumberLabel[bankAccountForm(details.country)])}
          value={details.cardNumber}
          shown={groupedDigits(details.cardNumber)}
          testId="copy-card-number"
        />
        <CopyRow
          label={t('wallet.fields.holderName')}
          value={details.holderName}
          testId="copy-holder-name"
        />
      </dl>
      <p className="card__note">{t('wallet.deposit.bankNote')}</p>
      <ArrivalNote channel={details} />
    </section>
  );
}

function BankDepositForm({ details }: { details: BankChannel }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { submit, progress } = useDepositSubmit();
  const again = useResubmission();
  const amountFrom = useAmountParam();
  const draft = useDepositDraft('bank', again?.id, draftFields);
  const saved = draft.saved;
  const form = useForm(
    {
      // The amount typed here, unless the amount step has since handed over another one.
      amount: saved?.amountFrom === amountFrom ? (saved.amount ?? amountFrom) : amountFrom,
      payerBank: saved?.payerBank ?? again?.payerBank ?? '',
      payerCard: saved?.payerCard ?? again?.payerCard ?? '',
      payerName: saved?.payerName ?? again?.payerName ?? '',
      screenshot: null as PickedImage | null,
      remark: saved?.remark ?? again?.remark ?? '',
    },
    bankSchema(details),
  );
  const { amount, payerBank, payerCard, payerName, remark } = form.values;
  useDraftSaving(draft, { amount, amountFrom, payerBank, payerCard, payerName, remark });

  const send = form.onSubmit(async (values) => {
    if (!values.screenshot) return;
    await submit(
      {
        channel: 'bank',
        amount: Number(values.amount) * 100,
        payerBank: values.payerBank.trim(),
        payerCard: values.payerCard.trim(),
        payerName: values.payerName.trim(),
        remark: values.remark.trim() || undefined,
        resubmitOf: again?.id,
      },
      values.screenshot,
      // Cleared before the page moves on: nothing of a sent deposit is kept a moment longer.
      draft.clear,
    );
  });

  return (
    <div className="wallet-page">
      <PlatformAccount details={details} />
      <form id={form.formId} className="form card" onSubmit={send} noValidate>
        <ResubmitNote />
        <FormError message={form.formError} />
        <TextField
          {...form.field('amount')}
          label={t('wallet.deposit.amount', { currency: money.currency })}
          testId="amount"
          inputMode="numeric"
          autoComplete="off"
          filter={wholeAmountInput}
        />
        <CreditNote channel={details} />
        <h2 className="card__title">{t('wallet.deposit.payer')}</h2>
        <TextField
          {...form.field('payerBank')}
          label={t('wallet.fields.payerBank')}
          testId="payer-bank"
          autoComplete="off"
          maxLength={maxLengthOf(payer.payerBank)}
        />
        <TextField
          {...form.field('payerCard')}
          label={t('wallet.fields.payerCard')}
          testId="payer-card"
          inputMode="numeric"
          autoComplete="cc-number"
          maxLength={maxLengthOf(payer.payerCard)}
        />
        <TextField
          {...form.field('payerName')}
          label={t('wallet.fields.payerName')}
          testId="payer-name"
          autoComplete="cc-name"
          maxLength={maxLengthOf(payer.payerName)}
        />
        <DepositFormEnd
          screenshotLabel={t('wallet.deposit.screenshot')}
          screenshot={form.values.screenshot}
          screenshotError={form.errorOf('screenshot')}
          onScreenshot={(image) => form.setValue('screenshot', image)}
          remark={remark}
          onRemark={form.field('remark').onValue}
          progress={progress}
          submitting={form.submitting}
        />
      </form>
    </div>
  );
}

/** /pages/recharge/recharge-bank-card: the platform's bank details, then the payer's and the proof. */
export function RechargeBankCardPage() {
  // One form per amount and resubmission: opening this page for another amount while the sent
  // form is still on screen (the next page's chunk loading) would otherwise keep the sent form,
  // its typed fields and all, instead of starting from the draft (none once sent).
  const { search } = useLocation();
  return (
    <ChannelPage channel="bank">
      {(details) =>
        details.channel === 'bank' && <BankDepositForm key={search} details={details} />
      }
    </ChannelPage>
  );
}
