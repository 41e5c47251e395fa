import type { TFunction } from 'i18next';
import type { TypedAmount } from '@shared/amount-input';

/**
 * What is wrong with a typed amount, in words, shown under its field as it is typed (issue 37):
 * "Minimum 10.00", "Maximum 50,000.00", the balance it exceeds, too many decimals; null while
 * the amount is valid or not yet typed. `money` formats minor units in the user's language.
 */
export function amountProblemText(
  t: TFunction,
  check: TypedAmount,
  money: (minor: number) => string,
): string | null {
  if (check.state !== 'invalid') return null;
  if (check.problem === 'decimals') return t('common.amount.decimals', { count: check.limit });
  return t(`common.amount.${check.problem}`, { amount: money(check.limit) });
}
