import type { AlertDirection, PriceAlert, PriceAlerts } from '@shared/alerts/model';
import * as alerts from '@shared/alerts/routes';
import { call } from './client';

export type { AlertDirection, PriceAlert };

/** The user's active and recently fired price alerts of one product. */
export function getAlerts(product: string): Promise<PriceAlerts> {
  return call(alerts.list, { query: { product } });
}

/** Sets an alert; rejects with ApiError ALERT_ALREADY_MET, ALERT_LIMIT, VALIDATION_FAILED, … */
export function createAlert(body: {
  product: string;
  direction: AlertDirection;
  price: string;
}): Promise<PriceAlert> {
  return call(alerts.create, { body });
}

export function deleteAlert(id: string): Promise<void> {
  return call(alerts.remove, { params: { id } });
}
