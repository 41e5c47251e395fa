import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { checkTypedAmount, minorToDecimal } from '@shared/amount-input';
import { tradePasswordSchema } from '@shared/accounts/model';
import type { WithdrawalAccount, WithdrawalRules } from '@shared/wallet/model';
import { ApiError } from '@client/api/client';
import { createWithdrawal } from '@client/api/wallet';
import { amountProblemText } from '@client/components/form/amount-problem';
import { useForm } from '@client/components/form/useForm';
import { checked, required, ruled } from '@client/components/form/validation';
import { newIdempotencyKey } from '@client/components/wallet/money';
import { useMoney } from '@client/components/wallet/useMoney';
import { walletPaths } from '@client/components/wallet/routes';
import { msg, withdrawAmountRule } from '@client/components/wallet/rules';
import { showToast, useAccountSummary } from '@client/state';
import { codeField, codeRefusal, codeRule, useTwoFactorCode } from '@client/state/two-factor';
import { platformNow } from '@client/state/platform-clock';
import { isOnHold } from '@client/pages/account/account-hold';

/** A refusal for the account (its hold) shows under the accounts, the code's under the code. */
function refusal(error: unknown): unknown {
  if (error instanceof ApiError && error.code === 'ACCOUNT_ON_HOLD')
    return new ApiError(error.code, error.message, error.status, 'accountId');
  return codeRefusal(error);
}

/**
 * The withdrawal form's values and rules (account, amount within the server's limits, the
 * transaction password), "all" from the available balance, and the submission: one
 * Idempotency-Key per request, a new one once a refusal has stored nothing. The amount is
 * checked as it is typed (issue 37): `problem` says what is wrong with it in words (minimum,
 * maximum, the available balance, decimals), `valid` is it in minor units once it is right.
 */
export function useWithdrawForm(accounts: WithdrawalAccount[], limits: WithdrawalRules) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { summary } = useAccountSummary();
  const money = useMoney();
  const [key, setKey] = useState(newIdempotencyKey);
  // With two-factor on, a withdrawal also takes a code.
  const twoFactor = useTwoFactorCode();
  const schema = useMemo(
    () =>
      z.object({
        accountId: required(msg('wallet.rules.chooseAccount')),
        amount: ruled(withdrawAmountRule(limits)),
        tradePassword: checked(tradePasswordSchema, 'account.rules.tradePassword'),
        code: codeRule(twoFactor.asked),
      }),
    [limits, twoFactor.asked],
  );
  const form = useForm(
    // A linked account is chosen already (the first that takes withdrawals now: not on hold).
    {
      accountId: accounts.find((a) => !isOnHold(a, platformNow()))?.id ?? '',
      amount: '',
      tradePassword: '',
      code: '',
    },
    schema,
  );
  const amount = form.field('amount');
  const check = checkTypedAmount(amount.value, {
    min: limits.min,
    max: limits.max,
    balance: summary?.available ?? null,
  });
  const valid = check.state === 'valid' ? check.amount : null;
  const problem = amountProblemText(t, check, money.money);

  const send = form.onSubmit(async (v) => {
    try {
      await createWithdrawal(
        {
          accountId: v.accountId,
          amount: valid ?? 0,
          tradePassword: v.tradePassword,
          ...codeField(twoFactor.on, v.code),
        },
        key,
      );
    } catch (err) {
      // A refusal stored nothing: the corrected form is a new request.
      if (err instanceof ApiError && err.status >= 400 && err.status < 500)
        setKey(newIdempotencyKey());
      throw refusal(err);
    }
    showToast(t('wallet.withdraw.succeeded'));
    void navigate(walletPaths.withdrawals, { replace: true });
  });

  const fillAll = () => {
    if (!summary) return;
    const all = Math.min(summary.available, limits.max);
    amount.onValue(minorToDecimal(all));
  };

  return { form, summary, valid, problem, send, fillAll, withCode: twoFactor.on };
}
