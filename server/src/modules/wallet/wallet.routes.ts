import { Router } from 'express';
import {
  depositBody,
  idParam,
  ledgerQuery,
  pageQuery,
  withdrawalAccountBody,
  withdrawalBody,
} from '@shared/wallet.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import { parseIdempotencyKey } from '@server/platform/idempotency';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import type { AuthService } from '../auth/auth.service';
import { fileOf, imageForm } from '../uploads/upload.middleware';
import type { WalletService } from './wallet.service';
import { refusePracticeMoney } from './practice';

/** The user's wallet: summary, fund records, deposits, withdrawal accounts, withdrawals. */
export function walletRoutes(wallet: WalletService, auth: AuthService): Router {
  const r = Router();
  const user = requireUser(auth);
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;

  r.get('/account/summary', user, async (_req, res) => {
    res.json(await wallet.summary(userId(res.locals)));
  });
  r.get('/wallet/ledger', user, async (req, res) => {
    res.json(await wallet.fundRecords(userId(res.locals), parseOrThrow(ledgerQuery, req.query)));
  });

  r.get('/deposits/channels', user, (_req, res) => {
    res.json(wallet.depositChannels());
  });
  r.get('/deposits', user, async (req, res) => {
    res.json(await wallet.deposits.list(userId(res.locals), parseOrThrow(pageQuery, req.query)));
  });
  // The session is checked before the form is read, so anonymous uploads cost nothing.
  r.post('/deposits', user, imageForm(['screenshot']), async (req, res) => {
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    const body = parseOrThrow(depositBody, req.body);
    refusePracticeMoney(body.mode);
    const answer = await wallet.deposits.create(
      userId(res.locals),
      body,
      fileOf(req, 'screenshot'),
      key,
    );
    if (answer.status === 201)
      req.log.info(
        {
          event: 'deposit.requested',
          depositId: (answer.body as { id?: string }).id,
          userId: userId(res.locals),
        },
        'deposit requested',
      );
    res.status(answer.status).json(answer.body);
  });

  r.get('/withdrawal-accounts', user, async (_req, res) => {
    res.json(await wallet.withdrawals.accounts(userId(res.locals)));
  });
  r.get('/withdrawal-accounts/:id', user, async (req, res) => {
    const { id } = parseOrThrow(idParam, req.params);
    res.json(await wallet.withdrawals.account(userId(res.locals), id));
  });
  r.post('/withdrawal-accounts', user, async (req, res) => {
    const body = parseOrThrow(withdrawalAccountBody, req.body);
    res.status(201).json(await wallet.withdrawals.bind(userId(res.locals), body));
  });

  r.get('/withdrawals/rules', user, (_req, res) => {
    res.json(wallet.withdrawalRules());
  });
  r.get('/withdrawals', user, async (req, res) => {
    res.json(await wallet.withdrawals.list(userId(res.locals), parseOrThrow(pageQuery, req.query)));
  });
  r.post('/withdrawals', user, async (req, res) => {
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    const body = parseOrThrow(withdrawalBody, req.body);
    refusePracticeMoney(body.mode);
    const answer = await wallet.withdrawals.create(userId(res.locals), body, key);
    if (answer.status === 201)
      req.log.info(
        {
          event: 'withdrawal.requested',
          withdrawalId: (answer.body as { id?: string }).id,
          userId: userId(res.locals),
          amount: body.amount,
        },
        'withdrawal requested (funds held)',
      );
    res.status(answer.status).json(answer.body);
  });
  return r;
}
