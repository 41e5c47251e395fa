import { useTranslation } from 'react-i18next';
import { amountToMinor } from '@shared/amount-input';
import type { DepositChannel } from '@shared/wallet';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { picked, ruled } from '@client/components/form/validation';
import { CopyButton } from '@client/components/wallet/CopyButton';
import { ImagePicker, type PickedImage } from '@client/components/wallet/ImagePicker';
import { amountInput, depositAmountRule, msg } from '@client/components/wallet/rules';
import { UploadProgress } from '@client/components/wallet/UploadProgress';
import { useMoney } from '@client/components/wallet/useMoney';
import { ChannelPage, CreditNote, useAmountParam, useDepositSubmit } from './deposit-parts';
import { RemarkField } from './RemarkField';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';
import { QrCode } from '@client/components/wallet/QrCode';
import { z } from 'zod';

type CoinChannel = Exclude<DepositChannel, { channel: 'bank' }>;

const coinSchema = (details: CoinChannel) =>
  z.object({
    quantity: ruled(depositAmountRule(details)),
    screenshot: picked<PickedImage>(msg('wallet.rules.screenshot')),
    remark: z.string(),
  });

function UsdtDepositForm({ details }: { details: CoinChannel }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { submit, progress } = useDepositSubmit();
  const form = useForm(
    { quantity: useAmountParam(false), screenshot: null as PickedImage | null, remark: '' },
    coinSchema(details),
  );

  const send = form.onSubmit(async (values) => {
    const quantity = amountToMinor(values.quantity.trim());
    const shot = values.screenshot;
    if (!shot || quantity === null) return;
    await submit(
      { channel: details.channel, quantity, remark: values.remark.trim() || undefined },
      shot,
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
        <p className="address" data-testid="deposit-address">
          {details.address}
        </p>
        <div className="address-actions">
          <CopyButton
            text={details.address}
            testId="copy-address"
            label={t('wallet.copyLabel', {
              what: t('wallet.deposit.address', { network: details.network }),
            })}
          />
        </div>
        <p className="card__note">
          {t('wallet.deposit.networkWarning', { network: details.network })}
        </p>
        <p className="card__note num" data-testid="usdt-rate">
          {t('wallet.deposit.rate', { rate: details.rate, currency: money.currency })}
        </p>
      </section>
      <form id={form.formId} className="form card" onSubmit={send} noValidate>
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
        <ImagePicker
          label={t('wallet.deposit.screenshot')}
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
