/** The streams the rest of the client may use; socket.io itself stays inside this folder. */
export { channel$, marketById$, offline$, productStatus$, ticks$, MARKET_STALE_MS } from './market';
export { authRejected$, connection$, reconnected$, serverClock, setSocketToken } from './socket';
export type { ConnectionState } from './watchdog';

import { serverClock } from './socket';

/** Now on the server's clock (epoch ms). */
export function serverNow(): number {
  return serverClock.now();
}
