import type { ServerToClientEvents, UserEventName } from '@shared/socket';

/**
 * Sends an event to every socket of one user, on whichever gateway it is. Embedded: the local
 * Socket.IO server. Scaled: @socket.io/redis-emitter, heard by the gateways' redis adapter.
 * Fire-and-forget: a user with no socket open simply gets nothing.
 */
export interface UserEvents {
  emit<E extends UserEventName>(
    userId: number | string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
}

/** For tests and processes with no sockets: records what was sent. */
export function recordingUserEvents(): UserEvents & {
  sent: { userId: string; event: string; payload: unknown }[];
} {
  const sent: { userId: string; event: string; payload: unknown }[] = [];
  return {
    sent,
    emit(userId, event, ...args) {
      sent.push({ userId: String(userId), event, payload: args[0] });
    },
  };
}
