import { useTranslation } from 'react-i18next';
import './picker.css';

/** Upload progress from XMLHttpRequest's upload events; indeterminate until a total is known. */
export function UploadProgress({ sent, total }: { sent: number; total: number }) {
  const { t } = useTranslation();
  const percent = total > 0 ? Math.min(100, Math.round((sent / total) * 100)) : null;
  return (
    <div className="upload-progress" data-testid="upload-progress">
      <progress
        className="upload-progress__bar"
        max={100}
        value={percent ?? undefined}
        aria-label={t('wallet.upload.uploading')}
      />
      <span className="upload-progress__text num" aria-live="polite">
        {percent === null ? t('wallet.upload.uploading') : t('wallet.upload.percent', { percent })}
      </span>
    </div>
  );
}
