/** GET /api/account/summary and the `balance` socket event. Money in minor units. */
export interface AccountSummary {
  available: number;
  inOrders: number;
  withdrawHold: number;
  savings: number;
  totalAssets: number;
  pnlTotal: number;
  pnlToday: number;
  creditScore: number;
  verified: boolean;
}
