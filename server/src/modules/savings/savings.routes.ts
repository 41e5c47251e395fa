import { Router, type Request, type Response } from 'express';
import type { SavingsTransferBody } from '@shared/savings/model';
import * as endpoints from '@shared/savings/endpoints';
import { parseIdempotencyKey } from '@server/platform/idempotency';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { Reply, serve } from '@server/platform/http/serve';
import type { AuthService } from '../auth/auth.service';
import type { SavingsService } from './savings.service';
import { refusePracticeMoney } from '../wallet/practice';

/** /api/savings (shared/src/savings/endpoints.ts): thin: validate → authorise → service → present. */
export function savingsRoutes(savings: SavingsService, auth: AuthService): Router {
  const r = Router();
  const user = requireUser(auth);
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;

  serve(r, endpoints.savings, user, (_input, { res }) => savings.overview(userId(res.locals)));
  const move =
    (direction: 'in' | 'out') =>
    async (
      { body }: { body: SavingsTransferBody },
      { req, res }: { req: Request; res: Response },
    ) => {
      const key = parseIdempotencyKey(req.headers['idempotency-key']);
      // Practice money never goes into savings, and savings never become practice money.
      refusePracticeMoney(body.mode);
      const transfer = direction === 'in' ? savings.transferIn : savings.transferOut;
      const user = userId(res.locals);
      const answer = await transfer(user, body, key);
      if (answer.status < 300)
        req.log.info(
          { event: `savings.${direction}`, userId: user, amount: body.amount },
          `savings moved ${direction}`,
        );
      return new Reply(answer.status, answer.body);
    };
  serve(r, endpoints.savingsIn, user, move('in'));
  serve(r, endpoints.savingsOut, user, move('out'));
  serve(r, endpoints.savingsRecords, user, ({ query }, { res }) =>
    savings.records(userId(res.locals), query),
  );
  return r;
}
