import type { MessageKind, MessageParams } from '@shared/content/model';
import type { Queryable } from '@infra/db';
import type { PageRequest } from '@server/platform/paging';

/**
 * SQL of system messages. A user sees their own messages and the broadcasts sent since they
 * registered. Own messages carry their read state (`read_at`); a broadcast is one row for all,
 * and a user's reading of it is a row in `message_reads`, written only when read.
 */

export interface MessageRow {
  id: number;
  user_id: number | null;
  kind: MessageKind;
  params: MessageParams;
  title: string | null;
  body: string | null;
  read: boolean;
  created_at: Date;
}

const columns = 'm.id, m.user_id, m.kind, m.params, m.title, m.body, m.created_at';

export async function insertMessage(
  db: Queryable,
  m: {
    userId: number | null;
    kind: MessageKind;
    params?: MessageParams;
    title?: string;
    body?: string;
  },
): Promise<MessageRow> {
  const { rows } = await db.query<MessageRow>(
    `INSERT INTO messages AS m (user_id, kind, params, title, body) VALUES ($1, $2, $3::text::jsonb, $4, $5)
     RETURNING ${columns}, false AS read`,
    [m.userId, m.kind, JSON.stringify(m.params ?? {}), m.title ?? null, m.body ?? null],
  );
  return rows[0]!;
}

/** Inserts many users' system messages in one statement; returns their ids in the list's order. */
export async function insertMessages(
  db: Queryable,
  list: readonly { userId: number; kind: MessageKind; params: MessageParams }[],
): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO messages (user_id, kind, params)
     SELECT u, k, p::jsonb FROM unnest($1::bigint[], $2::text[], $3::text[]) WITH ORDINALITY AS v(u, k, p, n)
     ORDER BY n RETURNING id`,
    [list.map((m) => m.userId), list.map((m) => m.kind), list.map((m) => JSON.stringify(m.params))],
  );
  // Identity values follow the insertion order, which ORDER BY n fixes.
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/**
 * One page of the user's messages, newest first: the newest `limit + 1` of their own and of the
 * broadcasts they can see, merged. Each half walks its own index.
 */
export async function listMessages(
  db: Queryable,
  userId: number,
  page: PageRequest,
): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT * FROM (
       (SELECT ${columns}, m.read_at IS NOT NULL AS read FROM messages m
        WHERE m.user_id = $1 AND ($2::bigint IS NULL OR m.id < $2)
        ORDER BY m.id DESC LIMIT $3)
       UNION ALL
       (SELECT ${columns}, r.message_id IS NOT NULL AS read FROM messages m
        JOIN users u ON u.id = $1
        LEFT JOIN message_reads r ON r.user_id = $1 AND r.message_id = m.id
        WHERE m.user_id IS NULL AND m.created_at >= u.created_at AND ($2::bigint IS NULL OR m.id < $2)
        ORDER BY m.id DESC LIMIT $3)
     ) x ORDER BY id DESC LIMIT $3`,
    [userId, page.cursor ?? null, page.limit + 1],
  );
  return rows;
}

/**
 * Unread = own unread (a partial index holds exactly those) + broadcasts since registration −
 * the broadcasts this user has read. Three index counts; no per-user copy of any broadcast.
 */
export async function unreadCount(db: Queryable, userId: number): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT (
       (SELECT count(*) FROM messages WHERE user_id = u.id AND read_at IS NULL)
       + (SELECT count(*) FROM messages WHERE user_id IS NULL AND created_at >= u.created_at)
       - (SELECT count(*) FROM message_reads WHERE user_id = u.id)
     )::int AS count
     FROM users u WHERE u.id = $1`,
    [userId],
  );
  return rows[0]?.count ?? 0;
}

/** The message if this user may see it: `own` or `broadcast`; null for anyone else's or none. */
export async function messageAudience(
  db: Queryable,
  userId: number,
  id: number,
): Promise<'own' | 'broadcast' | null> {
  const { rows } = await db.query<{ own: boolean }>(
    `SELECT m.user_id IS NOT NULL AS own FROM messages m JOIN users u ON u.id = $1
     WHERE m.id = $2 AND (m.user_id = u.id OR (m.user_id IS NULL AND m.created_at >= u.created_at))`,
    [userId, id],
  );
  const row = rows[0];
  return row ? (row.own ? 'own' : 'broadcast') : null;
}

export async function markOwnRead(db: Queryable, userId: number, id: number): Promise<void> {
  await db.query(
    'UPDATE messages SET read_at = now() WHERE id = $1 AND user_id = $2 AND read_at IS NULL',
    [id, userId],
  );
}

export async function markBroadcastRead(db: Queryable, userId: number, id: number): Promise<void> {
  await db.query(
    `INSERT INTO message_reads (user_id, message_id) VALUES ($1, $2)
     ON CONFLICT (user_id, message_id) DO NOTHING`,
    [userId, id],
  );
}

/** Marks every message the user can see as read. */
export async function markAllRead(db: Queryable, userId: number): Promise<void> {
  await db.query('UPDATE messages SET read_at = now() WHERE user_id = $1 AND read_at IS NULL', [
    userId,
  ]);
  await db.query(
    `INSERT INTO message_reads (user_id, message_id)
     SELECT u.id, m.id FROM users u JOIN messages m
       ON m.user_id IS NULL AND m.created_at >= u.created_at
     WHERE u.id = $1
     ON CONFLICT (user_id, message_id) DO NOTHING`,
    [userId],
  );
}

export async function userExists(db: Queryable, userId: number): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM users WHERE id = $1', [userId]);
  return rowCount > 0;
}

/** User ids in keyset pages, for fanning a broadcast's socket event out. */
export async function userIdsAfter(db: Queryable, after: number, limit: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    'SELECT id FROM users WHERE id > $1 ORDER BY id LIMIT $2',
    [after, limit],
  );
  return rows.map((r) => r.id);
}
