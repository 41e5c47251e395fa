import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Order } from '@shared/orders/model';
import { getTicks } from '@client/api/market';
import { formatPriceAsIs } from '@client/components/orders/format';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { useFormat } from '@client/i18n/useFormat';
import { useApiQuery } from '@client/state/queries';
import { serverNow } from '@client/streams';
import { AUDIT_SPAN_MS, entryAudit, exitAudit, saleAudit, type Audit } from './audit';
import { formatStamp } from './stamp';

/** The moments a tick is chosen after: acceptance (entry), expiry (exit), a sale's acceptance. */
type Side = 'entry' | 'exit' | 'sale';

const momentOf = (order: Order, side: Side): number =>
  side === 'entry'
    ? order.createdAt
    : side === 'sale'
      ? (order.sale?.requestedAt ?? order.expiresAt)
      : order.expiresAt;

const audits = { entry: entryAudit, exit: exitAudit, sale: saleAudit };

/** The public tape around one moment (acceptance or expiry), as anyone can read it. */
function useTapeAround(order: Order, at: number) {
  const to = Math.min(at + AUDIT_SPAN_MS, Math.max(serverNow(), at));
  // Kept while the tape after the moment can still grow; read again when the order changes.
  return useApiQuery(['tape', order.productId, at, order.status, order.entry?.seq ?? 0], () =>
    getTicks({ product: order.productId, from: at - AUDIT_SPAN_MS, to, limit: 1000 }),
  );
}

function AuditTable({ audit, side }: { audit: Audit; side: Side }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const momentText =
    side === 'entry'
      ? 'results.audit.acceptedRow'
      : side === 'sale'
        ? 'results.sale.acceptedRow'
        : 'results.audit.expiryRow';
  const mark = heading(side, t);
  return (
    <table className="audit__table" data-testid={`audit-${side}-table`}>
      <thead>
        <tr>
          <th scope="col">{t('results.audit.seq')}</th>
          <th scope="col">{t('results.audit.time')}</th>
          <th scope="col" className="audit__price">
            {t('results.audit.price')}
          </th>
        </tr>
      </thead>
      <tbody>
        {audit.rows.map((row) =>
          row.kind === 'moment' ? (
            <tr key="moment" className="audit__moment" data-testid={`audit-${side}-moment`}>
              <td colSpan={3}>{t(momentText, { time: formatStamp(row.at, lang) })}</td>
            </tr>
          ) : (
            <tr
              key={row.tick.seq}
              className={row.chosen ? 'audit__tick audit__tick--chosen' : 'audit__tick'}
              data-testid={`audit-${side}-tick`}
              data-seq={row.tick.seq}
              data-ts={row.tick.ts}
              data-price={row.tick.price}
              data-chosen={row.chosen}
            >
              <td className="num">
                #{row.tick.seq}
                {row.chosen && <span className="audit__mark">{mark}</span>}
              </td>
              <td className="num">{formatStamp(row.tick.ts, lang)}</td>
              <td className="num audit__price">{formatPriceAsIs(row.tick.price, lang)}</td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

/** Why this tick: the rule in words, then this order's case. */
function entryWhy(order: Order, lang: string, t: TFunction): string {
  const accepted = formatStamp(order.createdAt, lang);
  if (order.entry) {
    return t('results.audit.entryWhy', {
      seq: order.entry.seq,
      time: formatStamp(order.entry.ts, lang),
      accepted,
    });
  }
  if (order.status === 'void') return t('results.audit.noEntry', { accepted });
  return t('results.audit.entryWaiting', { accepted });
}

function exitWhy(order: Order, lang: string, t: TFunction): string {
  const expiry = formatStamp(order.expiresAt, lang);
  if (order.status === 'void' && order.voidReason === 'FEED_STALE') {
    return t('results.audit.feedStale', { expiry });
  }
  if (order.exit) {
    return t('results.audit.exitWhy', {
      seq: order.exit.seq,
      time: formatStamp(order.exit.ts, lang),
      expiry,
    });
  }
  return t('results.audit.exitWaiting', { expiry });
}

function saleWhy(order: Order, lang: string, t: TFunction): string {
  const accepted = formatStamp(momentOf(order, 'sale'), lang);
  if (!order.exit) return '';
  return t('results.sale.why', {
    seq: order.exit.seq,
    time: formatStamp(order.exit.ts, lang),
    accepted,
  });
}

const whys = { entry: entryWhy, exit: exitWhy, sale: saleWhy };

function heading(side: Side, t: TFunction): string {
  if (side === 'entry') return t('orders.list.entry');
  return side === 'sale' ? t('results.sale.tick') : t('orders.list.exit');
}

function ruleText(side: Side, t: TFunction): string {
  if (side === 'entry') return t('results.audit.entryRule');
  return side === 'sale' ? t('results.sale.rule') : t('results.audit.exitRule');
}

/**
 * One half of the audit: the rule, why this order's tick was chosen, and the public tape around
 * the moment with the chosen tick marked, so the reader can check it against GET /api/market/ticks.
 */
export function TapeAudit({ order, side }: { order: Order; side: Side }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const tape = useTapeAround(order, momentOf(order, side));
  const why = whys[side](order, lang, t);
  return (
    <section
      className="audit__part"
      data-testid={`audit-${side}`}
      aria-labelledby={`audit-${side}-h`}
    >
      <h3 id={`audit-${side}-h`} className="audit__heading">
        {heading(side, t)}
      </h3>
      <p className="audit__rule">{ruleText(side, t)}</p>
      <p className="audit__why" data-testid={`audit-${side}-why`}>
        {why}
      </p>
      {tape.status === 'loading' && <LoadingState />}
      {tape.status === 'error' && <ErrorState error={tape.error} onRetry={tape.retry} />}
      {tape.status === 'ready' &&
        (() => {
          const audit = audits[side](tape.data, order);
          return (
            <>
              <AuditTable audit={audit} side={side} />
              {audit.agrees !== null && (
                <p
                  className={`audit__check audit__check--${audit.agrees ? 'ok' : 'off'}`}
                  data-testid={`audit-${side}-check`}
                  data-agrees={audit.agrees}
                >
                  {audit.agrees ? t('results.audit.agrees') : t('results.audit.outsideWindow')}
                </p>
              )}
            </>
          );
        })()}
    </section>
  );
}
