import type { Message, OpsMessage, OpsMessageBody } from '@shared/content/model';
import type { Page } from '@shared/wallet/model';
import type { Db } from '@infra/db';
import { notFound } from '@server/platform/http/errors';
import { toPage, type PageRequest } from '@server/platform/paging';
import type { UserEvents } from '@server/platform/user-events';
import * as repo from './messages.repo';
import { presentMessage, presentOpsMessage } from './content.presenters';

/** Users per query when a broadcast's socket event is fanned out. */
const FAN_OUT_BATCH = 1000;

/**
 * System messages: per user (written by reviews, see system-messages.ts) or broadcast by an
 * operator. Another user's message does not exist as far as a user can tell (404).
 */
export function createMessagesService(db: Db, userEvents: UserEvents) {
  /**
   * The `message` event for a broadcast goes to every user's room. The gateway keeps no room of
   * all users, so this walks the user ids; broadcasts are rare operator actions.
   */
  const fanOut = async (id: string, title: string) => {
    for (let after = 0; ;) {
      const ids = await repo.userIdsAfter(db, after, FAN_OUT_BATCH);
      for (const userId of ids) userEvents.emit(userId, 'message', { id, title });
      if (ids.length < FAN_OUT_BATCH) return;
      after = ids[ids.length - 1]!;
    }
  };

  return {
    async list(userId: number, page: PageRequest): Promise<Page<Message>> {
      return toPage(await repo.listMessages(db, userId, page), page.limit, presentMessage);
    },

    unreadCount: (userId: number): Promise<number> => repo.unreadCount(db, userId),

    /** Marks one message read; repeating it is harmless. 404 when the user cannot see it. */
    async markRead(userId: number, id: number): Promise<void> {
      const audience = await repo.messageAudience(db, userId, id);
      if (!audience) throw notFound('No such message');
      if (audience === 'own') await repo.markOwnRead(db, userId, id);
      else await repo.markBroadcastRead(db, userId, id);
    },

    async markAllRead(userId: number): Promise<void> {
      await db.transaction((tx) => repo.markAllRead(tx, userId));
    },

    /** An operator's message to one user (404 for an unknown user) or, without `userId`, to all. */
    async send(body: OpsMessageBody): Promise<OpsMessage> {
      if (body.userId !== undefined && !(await repo.userExists(db, body.userId)))
        throw notFound('No such user');
      const row = await repo.insertMessage(db, {
        userId: body.userId ?? null,
        kind: 'custom',
        title: body.title,
        body: body.body,
      });
      const event = { id: String(row.id), title: body.title };
      if (row.user_id !== null) userEvents.emit(row.user_id, 'message', event);
      else await fanOut(event.id, event.title);
      return presentOpsMessage(row);
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
