import { endpoint } from '../contract/endpoint';
import { priceAlertDto, priceAlertsDto } from '../contract/answers';
import { alertParams, alertsQuery, createAlertBody } from './model';

/**
 * Price alerts (docs/API.md, Alerts), declared once: the server evaluates them on the recorded
 * tape and fires each once, with a message and a live `alert` event.
 */
const tag = 'Alerts';

export const alerts = endpoint({
  method: 'get',
  path: '/alerts',
  operationId: 'alerts',
  summary: "The user's active and recently fired price alerts (of one product: ?product=)",
  tag,
  caller: 'user',
  query: alertsQuery,
  responses: { 200: priceAlertsDto },
});

export const createAlert = endpoint({
  method: 'post',
  path: '/alerts',
  operationId: 'createAlert',
  summary:
    'Set a price alert: above (at or above the price) or below (at or below); it must not be met already',
  tag,
  caller: 'user',
  body: createAlertBody,
  responses: { 201: priceAlertDto },
  errors: { 404: ['NOT_FOUND'], 409: ['ALERT_LIMIT', 'ALERT_ALREADY_MET', 'QUOTE_STALE'] },
});

export const deleteAlert = endpoint({
  method: 'delete',
  path: '/alerts/:id',
  operationId: 'deleteAlert',
  summary: 'Delete one of your alerts (active or fired)',
  tag,
  caller: 'user',
  params: alertParams,
  responses: { 204: null },
  errors: { 404: ['NOT_FOUND'] },
});
