import { useTranslation } from 'react-i18next';
import type { Direction } from '@shared/orders/model';

/** "▲ Buy up" / "▼ Buy down": the arrow and the words carry the direction, colour only adds to it. */
export function DirectionLabel({ direction }: { direction: Direction }) {
  const { t } = useTranslation();
  return (
    <span className={`direction direction--${direction}`}>
      <span aria-hidden="true">{direction === 'up' ? '▲' : '▼'}</span>
      {direction === 'up' ? t('orders.ticket.buyUp') : t('orders.ticket.buyDown')}
    </span>
  );
}
