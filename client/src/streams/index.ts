/** The streams the rest of the client may use; socket.io itself stays inside this folder. */
export { latestPerFrame } from './frame';
export { marketById$, offline$, productStatus$, ticks$, ticksGap$ } from './market';
export {
  connection$,
  sessionEnded$,
  setSocketToken,
  userEvent$,
  userEventsMissed$,
} from './socket';
export type { SessionEndNotice } from './session-link';

import { serverClock } from './socket';

/** Now on the server's clock (epoch ms). */
export function serverNow(): number {
  return serverClock.now();
}
