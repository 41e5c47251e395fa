import { useTranslation } from 'react-i18next';
import { SubmitButton } from '@client/components/form/TextField';
import type { MessageKey } from '@client/components/form/validation';
import { ImagePicker, type PickedImage } from '@client/components/wallet/ImagePicker';
import { UploadProgress } from '@client/components/wallet/UploadProgress';
import { RemarkField } from './RemarkField';

/**
 * The end of every deposit form (bank transfer, USDT claim): the transfer's screenshot, the
 * remark, the upload's progress and the submit button. `screenshotLabel` says whether the
 * screenshot is required (bank) or optional (claim); the form's schema enforces it.
 */
export function DepositFormEnd({
  screenshotLabel,
  screenshot,
  screenshotError,
  onScreenshot,
  remark,
  onRemark,
  progress,
  submitting,
}: {
  screenshotLabel: string;
  screenshot: PickedImage | null;
  screenshotError: MessageKey | null;
  onScreenshot: (image: PickedImage) => void;
  remark: string;
  onRemark: (remark: string) => void;
  progress: { sent: number; total: number } | null;
  submitting: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ImagePicker
        label={screenshotLabel}
        placeholder={t('wallet.deposit.screenshotHint')}
        testId="screenshot"
        value={screenshot}
        error={screenshotError}
        disabled={submitting}
        onChange={onScreenshot}
      />
      <RemarkField value={remark} onValue={onRemark} />
      {progress && <UploadProgress sent={progress.sent} total={progress.total} />}
      <SubmitButton busy={submitting}>{t('wallet.deposit.submit')}</SubmitButton>
    </>
  );
}
