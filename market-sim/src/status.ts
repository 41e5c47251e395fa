import type { ProductStatus } from '@shared/market/model';
import { isOpen, nextOpen } from './calendar';
import type { ProductSpec } from './catalogue';

/** Operator maintenance: product id → the announced opening time, or null when none was given. */
export type MaintenanceMap = ReadonlyMap<string, number | null>;

/** A product's status at `ts`: maintenance wins over the calendar; closed ones say when they open. */
export function productStatus(
  spec: ProductSpec,
  ts: number,
  maintenance: MaintenanceMap,
): { status: ProductStatus; opensAt?: number } {
  if (maintenance.has(spec.id)) {
    const opensAt = maintenance.get(spec.id);
    return opensAt ? { status: 'maintenance', opensAt } : { status: 'maintenance' };
  }
  if (isOpen(spec.calendar, ts)) return { status: 'open' };
  const opensAt = nextOpen(spec.calendar, ts);
  return opensAt ? { status: 'closed', opensAt } : { status: 'closed' };
}
