import { useTranslation } from 'react-i18next';
import type { Order } from '@shared/orders/model';
import { formatPriceAsIs } from '@client/components/orders/format';
import { recomputeSale } from '@client/components/orders/sell';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { formatStamp } from './stamp';

const percent = (value: number, lang: string) =>
  new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 2 }).format(value);

const seconds = (ms: number, lang: string) =>
  new Intl.NumberFormat(lang, { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(
    ms / 1000,
  );

/**
 * A sold order's early close (docs/FAIRNESS.md, Early close): when the sale was accepted, its
 * tick, every input of the value and the value, the formula in one line, and the value
 * recomputed here from those inputs with the very code the server ran.
 */
export function SaleFacts({ order }: { order: Order }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const sale = order.sale;
  if (order.status !== 'sold' || !sale) return null;
  const again = recomputeSale(order);
  const rows: [string, string, string][] = [
    ['requested', t('results.sale.requested'), formatStamp(sale.requestedAt, lang)],
    [
      'tick',
      t('results.sale.tick'),
      order.exit
        ? `${formatPriceAsIs(order.exit.price, lang)} · #${order.exit.seq} · ${formatStamp(order.exit.ts, lang)}`
        : '—',
    ],
    [
      'time-left',
      t('results.sale.timeLeft'),
      t('results.sale.seconds', { seconds: seconds(sale.msLeft, lang) }),
    ],
    ['vol', t('results.sale.vol'), percent(sale.annualVol, lang)],
    ['spread', t('results.sale.spread'), percent(sale.spreadBp / 10_000, lang)],
    ['value', t('results.sale.value'), formatMoney(sale.value, lang)],
  ];
  return (
    <section
      className="order-detail__card audit"
      aria-labelledby="sale-h"
      data-testid="sale"
      data-value={sale.value}
      data-recomputed={again ?? ''}
    >
      <h2 id="sale-h" className="audit__title">
        {t('results.sale.title')}
      </h2>
      <dl className="order-detail__facts">
        {rows.map(([id, label, text]) => (
          <div className="order-detail__row" key={id}>
            <dt>{label}</dt>
            <dd className="num" data-testid={`sale-${id}`}>
              {text}
            </dd>
          </div>
        ))}
      </dl>
      <p className="audit__rule" data-testid="sale-formula">
        {t('results.sale.formula')}
      </p>
      <p className="audit__rule">{t('results.sale.anyone')}</p>
      {again !== null && (
        <p
          className={`audit__check audit__check--${again === sale.value ? 'ok' : 'off'}`}
          data-testid="sale-check"
          data-agrees={again === sale.value}
        >
          {again === sale.value
            ? t('results.sale.recomputed', { value: formatMoney(again, lang) })
            : t('results.sale.differs', { value: formatMoney(again, lang) })}
        </p>
      )}
    </section>
  );
}
