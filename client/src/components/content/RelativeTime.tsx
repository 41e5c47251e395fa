import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@client/i18n/format';
import { formatRelativeTime, nextChangeIn } from '@client/i18n/relative-time';
import { serverNow } from '@client/streams';

/**
 * "Just now", "20 minutes ago", … in the current language, by the server's clock, re-worded when
 * the text would change. The exact date and time are in `dateTime` and the tooltip.
 */
export function RelativeTime({ ms }: { ms: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const timer = setTimeout(() => setNow(serverNow()), nextChangeIn(ms, now) + 50);
    return () => clearTimeout(timer);
  }, [ms, now]);
  return (
    <time dateTime={new Date(ms).toISOString()} title={formatDateTime(ms, lang)}>
      {formatRelativeTime(ms, now, lang, t('content.time.justNow'))}
    </time>
  );
}
