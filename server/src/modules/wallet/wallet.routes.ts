import { Router } from 'express';
import * as endpoints from '@shared/wallet/endpoints';
import { parseIdempotencyKey } from '@server/platform/idempotency';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { Reply, serve } from '@server/platform/http/serve';
import type { AuthService } from '../auth/auth.service';
import type { WalletService } from './wallet.service';
import { refusePracticeMoney } from './practice';

/**
 * The user's wallet (shared/src/wallet/endpoints.ts): summary, fund records, deposits (a report
 * is a multipart form with its screenshot), withdrawal accounts, withdrawals.
 */
export function walletRoutes(wallet: WalletService, auth: AuthService): Router {
  const r = Router();
  const user = requireUser(auth);
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;
  const { withdrawals } = wallet;

  serve(r, endpoints.accountSummary, user, (_input, { res }) => wallet.summary(userId(res.locals)));
  serve(r, endpoints.fundRecords, user, ({ query }, { res }) =>
    wallet.fundRecords(userId(res.locals), query),
  );
  serve(r, endpoints.depositChannels, user, (_input, { res }) =>
    wallet.depositChannels(userId(res.locals)),
  );
  serve(r, endpoints.deposits, user, ({ query }, { res }) =>
    wallet.deposits.list(userId(res.locals), query),
  );

  serve(r, endpoints.createDeposit, user, async ({ fields, files }, { req, res }) => {
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    refusePracticeMoney(fields.mode);
    const answer = await wallet.deposits.create(userId(res.locals), fields, files.screenshot, key);
    if (answer.status === 201)
      req.log.info(
        { event: 'deposit.requested', depositId: answer.body.id, userId: userId(res.locals) },
        'deposit requested',
      );
    return new Reply(answer.status, answer.body);
  });

  serve(r, endpoints.withdrawalAccounts, user, (_input, { res }) =>
    withdrawals.accounts(userId(res.locals)),
  );
  serve(r, endpoints.withdrawalHolder, user, (_input, { res }) =>
    withdrawals.holder(userId(res.locals)),
  );
  serve(r, endpoints.withdrawalAccount, user, ({ params }, { res }) =>
    withdrawals.account(userId(res.locals), params.id),
  );
  serve(r, endpoints.bindWithdrawalAccount, user, ({ body }, { res }) =>
    withdrawals.bind(userId(res.locals), body),
  );
  serve(r, endpoints.withdrawalRules, user, () => Promise.resolve(wallet.withdrawalRules()));
  serve(r, endpoints.withdrawalQuote, user, ({ query }, { res }) =>
    withdrawals.quote(userId(res.locals), query.accountId, query.amount),
  );
  serve(r, endpoints.withdrawals, user, ({ query }, { res }) =>
    withdrawals.list(userId(res.locals), query),
  );
  serve(r, endpoints.createWithdrawal, user, async ({ body }, { req, res }) => {
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    refusePracticeMoney(body.mode);
    const answer = await withdrawals.create(userId(res.locals), body, key);
    if (answer.status === 201)
      req.log.info(
        {
          event: 'withdrawal.requested',
          withdrawalId: answer.body.id,
          userId: userId(res.locals),
          amount: body.amount,
        },
        'withdrawal requested (funds held)',
      );
    return new Reply(answer.status, answer.body);
  });
  return r;
}
