import type { OperatorRole } from '@server/platform/http/operator-gate';
import type * as repo from './operators.repo';

/** An operator as the console and the audit log show them: never their password or secret. */
export interface OperatorView {
  id: string;
  name: string;
  role: OperatorRole;
  createdAt: number;
  disabled: boolean;
}

export const present = (o: repo.OperatorRow): OperatorView => ({
  id: String(o.id),
  name: o.name,
  role: o.role,
  createdAt: o.created_at.getTime(),
  disabled: o.disabled_at !== null,
});
