import { useMutation, useQuery } from '@tanstack/react-query';
import { productDisplayName } from '@shared/product-names';
import { createAlert, deleteAlert, getAlerts, type PriceAlert } from '@client/api/alerts';
import { formatClock, formatPrice } from '@client/i18n/format';
import { i18next } from '@client/i18n';
import { defaultLanguage, isLanguage } from '@client/i18n/languages';
import { userEvent$ } from '@client/streams';
import { queryClient, queryKeys } from './query-client';
import { showToast } from './toast';

/** The query key of one product's alerts (under the user's, so a session change drops them). */
const alertsKey = (product: string) => ['me', 'alerts', product] as const;

/** One product's alerts: loading, error and data as TanStack Query gives them. */
export function useProductAlerts(product: string) {
  return useQuery({ queryKey: alertsKey(product), queryFn: () => getAlerts(product) }, queryClient);
}

/** Sets or deletes an alert, then reads the product's list again. */
export function useAlertChanges(product: string) {
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertsKey(product) });
  const create = useMutation(
    {
      mutationFn: (v: { direction: 'above' | 'below'; price: string }) =>
        createAlert({ product, ...v }),
      onSuccess: refresh,
    },
    queryClient,
  );
  const remove = useMutation({ mutationFn: deleteAlert, onSuccess: refresh }, queryClient);
  return { create, remove };
}

/** How long a fired alert's notice stays: longer than a plain toast, it is news. */
const NOTICE_MS = 6000;

/** The notice of a fired alert, in the reader's language. */
function alertNotice(alert: PriceAlert, lang: string): string {
  const price = alert.fired?.price ?? alert.price;
  return i18next.t('alerts.fired', {
    product: productDisplayName(
      { id: alert.product, name: alert.product },
      isLanguage(lang) ? lang : defaultLanguage,
    ),
    price: formatPrice(price, price.split('.')[1]?.length ?? 0, lang),
    time: alert.fired ? formatClock(alert.fired.ts, lang, true) : '',
    tick: alert.fired?.seq ?? '',
  });
}

/**
 * A fired alert (the `alert` user event, on any of the user's devices) shows a notice on whatever
 * page is open and reads the alert lists and messages again (the message is written with it).
 */
export function startPriceAlertNotices(): () => void {
  const sub = userEvent$('alert').subscribe((alert) => {
    showToast(alertNotice(alert, i18next.language || defaultLanguage), NOTICE_MS);
    void queryClient.invalidateQueries({ queryKey: ['me', 'alerts'] });
    void queryClient.invalidateQueries({ queryKey: queryKeys.messages });
  });
  return () => sub.unsubscribe();
}
