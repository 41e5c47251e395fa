/**
 * The number an order is shown under everywhere (cards, details, the result sheet): its row id,
 * padded to six digits so numbers line up in a list, with a leading "#". Support finds the order
 * by the same digits (the id is what `GET /api/orders/:id` takes).
 */
export const orderNumber = (id: string): string => `#${id.padStart(6, '0')}`;
