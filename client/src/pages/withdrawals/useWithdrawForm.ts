import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import {
  AMOUNT_MAX,
  amountToMinor,
  minorToDecimal,
  sanitizeAmountInput,
} from '@shared/amount-input';
import { tradePasswordSchema } from '@shared/accounts';
import type { WithdrawalAccount, WithdrawalRules } from '@shared/wallet';
import { ApiError } from '@client/api/client';
import { createWithdrawal } from '@client/api/wallet';
import { useForm } from '@client/components/form/useForm';
import { checked, required, ruled } from '@client/components/form/validation';
import { newIdempotencyKey } from '@client/components/wallet/money';
import { walletPaths } from '@client/components/wallet/routes';
import { msg, withdrawAmountRule } from '@client/components/wallet/rules';
import { showToast, useAccountSummary } from '@client/state';

/**
 * The withdrawal form's values and rules (account, amount within the server's limits, the
 * transaction password), "all" from the available balance, and the submission: one
 * Idempotency-Key per request, a new one once a refusal has stored nothing.
 */
export function useWithdrawForm(accounts: WithdrawalAccount[], limits: WithdrawalRules) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { summary } = useAccountSummary();
  const [key, setKey] = useState(newIdempotencyKey);
  const max = Math.min(AMOUNT_MAX, Math.floor(limits.max / 100));
  const form = useForm(
    // The linked account is chosen already (the first, when there are two).
    { accountId: accounts[0]?.id ?? '', amount: '', tradePassword: '' },
    z.object({
      accountId: required(msg('wallet.rules.chooseAccount')),
      amount: ruled(withdrawAmountRule(limits)),
      tradePassword: checked(tradePasswordSchema, 'account.rules.tradePassword'),
    }),
  );
  const amount = form.field('amount');

  const send = form.onSubmit(async (v) => {
    try {
      await createWithdrawal(
        {
          accountId: v.accountId,
          amount: amountToMinor(v.amount.trim()) ?? 0,
          tradePassword: v.tradePassword,
        },
        key,
      );
    } catch (err) {
      // A refusal stored nothing: the corrected form is a new request.
      if (err instanceof ApiError && err.status >= 400 && err.status < 500)
        setKey(newIdempotencyKey());
      throw err;
    }
    showToast(t('wallet.withdraw.succeeded'));
    void navigate(walletPaths.withdrawals, { replace: true });
  });

  const fillAll = () => {
    if (!summary) return;
    const all = Math.min(summary.available, limits.max);
    amount.onValue(sanitizeAmountInput(minorToDecimal(all), max));
  };

  return { form, summary, max, send, fillAll };
}
