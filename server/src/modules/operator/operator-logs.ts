import type { Db } from '@infra/db';
import type { AuditEntry, PersonalDataRead } from '@server/platform/http/operator-gate';
import * as repo from './operators.repo';

/** The LIKE pattern that matches `s` literally inside a longer text. */
const literal = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The append-only logs: the audit log of operators' actions and the personal-data access log. */
export function operatorLogs(db: Db) {
  return {
    /** Appends one line to the audit log (the database refuses to change or delete lines). */
    async record(e: AuditEntry): Promise<void> {
      await repo.insertAudit(db, {
        operator_id: e.operator.id,
        operator_name: e.operator.name,
        role: e.operator.role,
        action: e.action,
        target: e.target,
        before: e.before ?? null,
        after: e.after ?? null,
        reason: e.reason,
        address: e.address,
        status: e.status,
      });
    },

    /** Appends one read of personal data to the access log (append-only in the database). */
    async recordRead(r: PersonalDataRead): Promise<void> {
      await repo.insertAccess(db, {
        operator_id: r.operator.id,
        operator_name: r.operator.name,
        role: r.operator.role,
        kind: r.kind,
        user_id: r.kind === 'upload' ? null : r.userId,
        upload_id: r.kind === 'upload' ? r.uploadId : null,
        address: r.address,
      });
    },

    /** The access log, newest first, by operator name and by user. */
    async accessLog(q: { operator?: string; user?: number; cursor?: number; limit: number }) {
      const rows = await repo.accessLines(db, {
        operator: q.operator,
        userId: q.user,
        before: q.cursor,
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      return {
        items: page.map((r) => ({
          id: String(r.id),
          at: r.at.getTime(),
          operator: r.operator_name,
          operatorId: r.operator_id === null ? null : String(r.operator_id),
          role: r.role,
          kind: r.kind,
          userId: String(r.user_id),
          uploadId: r.upload_id,
          address: r.address,
        })),
        nextCursor: rows.length > q.limit ? String(page.at(-1)!.id) : null,
      };
    },

    async audit(q: {
      operator?: string;
      action?: string;
      target?: string;
      cursor?: string;
      limit: number;
    }) {
      const rows = await repo.auditLines(db, {
        operator: q.operator,
        action: q.action === undefined ? undefined : literal(q.action),
        target: q.target === undefined ? undefined : literal(q.target),
        before: q.cursor ? Number(q.cursor) : undefined,
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      return {
        items: page.map((r) => ({
          id: String(r.id),
          at: r.at.getTime(),
          operator: r.operator_name,
          operatorId: r.operator_id === null ? null : String(r.operator_id),
          role: r.role,
          action: r.action,
          target: r.target,
          before: r.before,
          after: r.after,
          reason: r.reason,
          address: r.address,
          status: r.status,
        })),
        nextCursor: rows.length > q.limit ? String(page.at(-1)!.id) : null,
      };
    },
  };
}
