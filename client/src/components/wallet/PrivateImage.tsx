import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { getUpload } from '@client/api/wallet';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { useApiQuery } from '@client/state';

/**
 * An upload only its owner may see (a deposit screenshot): fetched with the session token,
 * shown from a blob URL, which is given back when the image goes away.
 */
export function PrivateImage({ id, alt }: { id: string; alt: string }) {
  const { t } = useTranslation();
  // The cache keeps the image's bytes; the URL for them lives as long as this element.
  const image = useApiQuery(['me', 'upload', id], () => getUpload(id));
  const blob = image.status === 'ready' ? image.data : null;
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
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
      src={url ?? undefined}
      alt={alt}
      title={t('wallet.deposit.screenshot')}
      data-testid={`upload-${id}`}
    />
  );
}
