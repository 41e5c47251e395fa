import { directionOf } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import './market.css';

/**
 * A 24h change: green with ▲ and "+" when up, red with ▼ and "-" when down. Arrow and sign carry
 * the direction for readers who cannot tell the colours apart.
 */
export function ChangeBadge({ pct, solid = false }: { pct: string; solid?: boolean }) {
  const format = useFormat();
  const direction = directionOf(pct);
  const arrow = direction === 'up' ? '▲' : direction === 'down' ? '▼' : '';
  return (
    <span className={`change change--${direction}${solid ? ' change--solid' : ''}`}>
      {arrow && (
        <span className="change__arrow" aria-hidden="true">
          {arrow}
        </span>
      )}
      {format.changePct(pct)}
    </span>
  );
}
