import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { getUpload } from '@client/api/wallet';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { useRequest } from '@client/state';

/**
 * An upload only its owner may see (a deposit screenshot): fetched with the session token,
 * shown from a blob URL, which is given back when the image goes away.
 */
export function PrivateImage({ id, alt }: { id: string; alt: string }) {
  const { t } = useTranslation();
  const image = useRequest(`upload:${id}`, async (signal) =>
    URL.createObjectURL(await getUpload(id, signal)),
  );
  const url = image.status === 'ready' ? image.data : null;
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  if (image.status === 'loading') return <LoadingState />;
  if (image.status === 'error') return <ErrorState error={image.error} onRetry={image.retry} />;
  return (
    <img
      className="picker__preview"
      src={image.data}
      alt={alt}
      title={t('wallet.deposit.screenshot')}
      data-testid={`upload-${id}`}
    />
  );
}
