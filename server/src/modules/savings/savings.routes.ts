import { Router } from 'express';
import { pageOf, savingsOverviewDto, savingsRecordDto } from '@shared/dto';
import { savingsTransferBody } from '@shared/savings';
import { pageQuery } from '@shared/wallet.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import { parseIdempotencyKey } from '@server/platform/idempotency';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { declare, type RouteSpec } from '@server/platform/http/route';
import type { AuthService } from '../auth/auth.service';
import type { SavingsService } from './savings.service';
import { refusePracticeMoney } from '../wallet/practice';

/** /api/savings: thin: validate → authorise → service → present. */
export function savingsRoutes(savings: SavingsService, auth: AuthService): Router {
  const r = Router();
  const user = requireUser(auth);
  const tag = 'Identity and savings';
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;

  declare(
    r,
    {
      method: 'get',
      path: '/savings',
      operationId: 'savings',
      summary: 'The savings balance',
      tag,
      auth: user,
      responses: { 200: savingsOverviewDto },
    },
    async (_req, res) => {
      res.json(await savings.overview(userId(res.locals)));
    },
  );
  for (const direction of ['in', 'out'] as const) {
    const spec: RouteSpec = {
      method: 'post',
      path: `/savings/${direction}`,
      operationId: `savings${direction === 'in' ? 'In' : 'Out'}`,
      summary: `Transfer ${direction === 'in' ? 'into' : 'out of'} savings`,
      tag,
      auth: user,
      body: savingsTransferBody,
      idempotent: true,
      responses: { 201: savingsRecordDto },
      errors: {
        400: ['AMOUNT_OUT_OF_RANGE', 'PRACTICE_NOT_ALLOWED'],
        409: ['DAILY_LIMIT_REACHED', 'INSUFFICIENT_BALANCE'],
      },
    };
    declare(r, spec, async (req, res) => {
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
  declare(
    r,
    {
      method: 'get',
      path: '/savings/records',
      operationId: 'savingsRecords',
      summary: 'Transfers in and out, and income',
      tag,
      auth: user,
      query: pageQuery,
      responses: { 200: pageOf(savingsRecordDto) },
    },
    async (req, res) => {
      res.json(await savings.records(userId(res.locals), parseOrThrow(pageQuery, req.query)));
    },
  );
  return r;
}
