import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import type { CoinNetwork } from '@shared/wallet/model';
import { FormError, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { ruled } from '@client/components/form/validation';
import type { PickedImage } from '@client/components/wallet/ImagePicker';
import { depositChannelInfo } from '@client/components/wallet/routes';
import { txIdRule } from '@client/components/wallet/rules';
import { ResubmitNote, useDepositSubmit, useResubmission } from './deposit-parts';
import { DepositFormEnd } from './DepositFormEnd';
import { useDepositDraft, useDraftSaving } from './deposit-draft';
import type { CoinChannel } from './usdt-address';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';

// The transaction id names the transfer; the server reads its amount and receiver from the chain
// (it must have paid the user's own address), so there is no amount to type. The screenshot is
// optional (DECISIONS.md).
const claimSchema = (network: CoinNetwork) =>
  z.object({
    txId: ruled(txIdRule(network)),
    screenshot: z.custom<PickedImage | null>(),
    remark: z.string(),
  });

/**
 * "My transfer did not arrive": a USDT transfer to the user's own address that the list does not
 * show, claimed by its transaction id for an operator to review. Once sent, back to the address
 * screen, where the claim now shows among the transfers.
 */
export function UsdtClaimForm({ details }: { details: CoinChannel }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const state = useLocation().state as { fromAddress?: boolean } | null;
  const { submit, progress } = useDepositSubmit(() => {
    // Opened from the address screen: back to that entry, so Back does not reopen the form.
    if (state?.fromAddress) void navigate(-1);
    else void navigate(depositChannelInfo[details.channel].path, { replace: true });
  });
  const again = useResubmission();
  const draft = useDepositDraft(details.channel, again?.id, ['txId', 'remark'] as const);
  const form = useForm(
    {
      txId: draft.saved?.txId ?? again?.txId ?? '',
      screenshot: null as PickedImage | null,
      remark: draft.saved?.remark ?? again?.remark ?? '',
    },
    claimSchema(details.network),
  );
  const { txId, remark } = form.values;
  useDraftSaving(draft, { txId, remark });

  const send = form.onSubmit(async (values) => {
    await submit(
      {
        channel: details.channel,
        txId: values.txId.trim(),
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
      <form id={form.formId} className="form card" onSubmit={send} noValidate>
        <p className="card__note" data-testid="claim-intro">
          {t('wallet.deposit.claimIntro', { network: details.network })}
        </p>
        <p className="address" data-testid="claim-address">
          {details.address}
        </p>
        <ResubmitNote />
        <FormError message={form.formError} />
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
        <DepositFormEnd
          screenshotLabel={t('wallet.deposit.screenshotOptional')}
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
