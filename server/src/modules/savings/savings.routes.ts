import { Router } from 'express';
import { savingsTransferBody } from '@shared/savings';
import { pageQuery } from '@shared/wallet.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import { parseIdempotencyKey } from '@server/platform/idempotency';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import type { AuthService } from '../auth/auth.service';
import type { SavingsService } from './savings.service';
import { refusePracticeMoney } from '../wallet/practice';

/** /api/savings: thin: validate → authorise → service → present. */
export function savingsRoutes(savings: SavingsService, auth: AuthService): Router {
  const r = Router();
  r.use('/savings', requireUser(auth));
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;

  r.get('/savings', async (_req, res) => {
    res.json(await savings.overview(userId(res.locals)));
  });
  r.get('/savings/records', async (req, res) => {
    res.json(await savings.records(userId(res.locals), parseOrThrow(pageQuery, req.query)));
  });
  for (const direction of ['in', 'out'] as const) {
    r.post(`/savings/${direction}`, async (req, res) => {
      const key = parseIdempotencyKey(req.headers['idempotency-key']);
      const body = parseOrThrow(savingsTransferBody, req.body);
      // Practice money never goes into savings, and savings never become practice money.
      refusePracticeMoney(body.mode);
      const move = direction === 'in' ? savings.transferIn : savings.transferOut;
      const user = userId(res.locals);
      const answer = await move(user, body, key);
      if (answer.status < 300)
        req.log.info(
          { event: `savings.${direction}`, userId: user, amount: body.amount },
          `savings moved ${direction}`,
        );
      res.status(answer.status).json(answer.body);
    });
  }
  return r;
}
