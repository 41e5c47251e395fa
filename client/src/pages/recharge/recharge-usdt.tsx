import { useTranslation } from 'react-i18next';
import { amountToMinor } from '@shared/amount-input';
import type { DepositChannel } from '@shared/wallet';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { ruled } from '@client/components/form/validation';
import { CopyButton } from '@client/components/wallet/CopyButton';
import { ImagePicker, type PickedImage } from '@client/components/wallet/ImagePicker';
import {
  amountInput,
  depositAmountRule,
  rateShown,
  txIdRule,
} from '@client/components/wallet/rules';
import { UploadProgress } from '@client/components/wallet/UploadProgress';
import { useMoney } from '@client/components/wallet/useMoney';
import {
  ArrivalNote,
  ChannelPage,
  CreditNote,
  DemoNote,
  NetworkWarning,
  useAmountParam,
  useDepositSubmit,
  ResubmitNote,
  useResubmission,
} from './deposit-parts';
import { RemarkField } from './RemarkField';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';
import { QrCode } from '@client/components/wallet/QrCode';
import { z } from 'zod';

type CoinChannel = Exclude<DepositChannel, { channel: 'bank' }>;

// The transaction id proves a USDT transfer; its screenshot is optional (DECISIONS.md).
const coinSchema = (details: CoinChannel) =>
  z.object({
    quantity: ruled(depositAmountRule(details)),
    txId: ruled(txIdRule(details.network)),
    screenshot: z.custom<PickedImage | null>(),
    remark: z.string(),
  });

function UsdtDepositForm({ details }: { details: CoinChannel }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { submit, progress } = useDepositSubmit();
  const again = useResubmission();
  const quantityParam = useAmountParam(false);
  const form = useForm(
    {
      quantity: quantityParam,
      txId: '',
      screenshot: null as PickedImage | null,
      remark: again?.remark ?? '',
    },
    coinSchema(details),
  );
  const rate = rateShown(details.rate, money.currency);

  const send = form.onSubmit(async (values) => {
    const quantity = amountToMinor(values.quantity.trim());
    if (quantity === null) return;
    await submit(
      {
        channel: details.channel,
        quantity,
        txId: values.txId.trim(),
        remark: values.remark.trim() || undefined,
        resubmitOf: again?.id,
      },
      values.screenshot,
    );
  });

  return (
    <div className="wallet-page">
      <section className="card" aria-labelledby="address-title">
        <h2 id="address-title" className="card__title">
          {t('wallet.deposit.address', { network: details.network })}
        </h2>
        <QrCode
          text={details.address}
          label={t('wallet.deposit.address', { network: details.network })}
        />
        {details.demo && <DemoNote what="address" />}
        <p className="address" data-testid="deposit-address">
          {details.address}
        </p>
        <div className="address-actions">
          <CopyButton
            text={details.address}
            testId="copy-address"
            block
            label={t('wallet.copyLabel', {
              what: t('wallet.deposit.address', { network: details.network }),
            })}
          />
        </div>
        <NetworkWarning network={details.network} />
        {rate && (
          <p className="card__note num" data-testid="usdt-rate">
            {t('wallet.deposit.rateCredited', { rate, currency: money.currency })}
          </p>
        )}
        <ArrivalNote channel={details} />
      </section>
      <form id={form.formId} className="form card" onSubmit={send} noValidate>
        <ResubmitNote />
        <FormError message={form.formError} />
        <TextField
          {...form.field('quantity')}
          label={t('wallet.deposit.quantity')}
          testId="quantity"
          inputMode="decimal"
          autoComplete="off"
          filter={amountInput}
        />
        <CreditNote channel={details} input={form.values.quantity} />
        <TextField
          {...form.field('txId')}
          label={t('wallet.deposit.txId')}
          hint={t(
            details.network === 'TRC20'
              ? 'wallet.deposit.txIdHintTrc20'
              : 'wallet.deposit.txIdHintErc20',
          )}
          testId="tx-id"
          autoComplete="off"
          maxLength={80}
        />
        <ImagePicker
          label={t('wallet.deposit.screenshotOptional')}
          placeholder={t('wallet.deposit.screenshotHint')}
          testId="screenshot"
          value={form.values.screenshot}
          error={form.errorOf('screenshot')}
          disabled={form.submitting}
          onChange={(image) => form.setValue('screenshot', image)}
        />
        <RemarkField value={form.values.remark} onValue={form.field('remark').onValue} />
        {progress && <UploadProgress sent={progress.sent} total={progress.total} />}
        <SubmitButton busy={form.submitting}>{t('wallet.deposit.submit')}</SubmitButton>
      </form>
    </div>
  );
}

/** /pages/recharge/recharge-usdt-trc20 */
export function RechargeTrc20Page() {
  return (
    <ChannelPage channel="usdt-trc20">
      {(details) => details.channel !== 'bank' && <UsdtDepositForm details={details} />}
    </ChannelPage>
  );
}

/** /pages/recharge/recharge-usdt-erc20 */
export function RechargeErc20Page() {
  return (
    <ChannelPage channel="usdt-erc20">
      {(details) => details.channel !== 'bank' && <UsdtDepositForm details={details} />}
    </ChannelPage>
  );
}
