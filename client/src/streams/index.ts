/** The streams the rest of the client may use; socket.io itself stays inside this folder. */
import type { ServerToClientEvents, UserEventName } from '@shared/socket';
import type { Observable } from 'rxjs';
import { socketEvent$ } from './socket';
export { latestPerFrame } from './frame';
export { marketById$, offline$, productStatus$, ticks$ } from './market';
export { reconnected$, sessionEnded$, setSocketToken } from './socket';
export type { SessionEndNotice } from './session-link';

import { serverClock } from './socket';

/** Now on the server's clock (epoch ms). */
export function serverNow(): number {
  return serverClock.now();
}

/** Events for the logged-in user (`order`, `balance`, `message`), from the user's room. */
export function userEvent$<E extends UserEventName>(
  event: E,
): Observable<Parameters<ServerToClientEvents[E]>[0]> {
  return socketEvent$(event);
}
