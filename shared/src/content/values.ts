/**
 * The value lists of the content contract, apart from its types: the answer schemas (answers.ts)
 * build enums from them, and content.ts re-exports them, without an import circle.
 */

/** The text pages the client shows, by slug. */
export const pageSlugs = ['about', 'privacy', 'privacy-2', 'rules', 'savings-rules'] as const;

export const bannerThemes = ['blue', 'green', 'amber', 'violet'] as const;

export const highlightIcons = ['tape', 'clock', 'shield', 'support'] as const;

/**
 * System messages are stored as a kind with parameters, not as text: the client words them in
 * the reader's language at display time (DECISIONS.md, Content). `custom` is an operator's text.
 */
export const systemMessageKinds = [
  'deposit_approved',
  'deposit_credited',
  'deposit_rejected',
  'withdrawal_succeeded',
  'withdrawal_failed',
  'kyc_verified',
  'kyc_rejected',
  'order_won',
  'order_lost',
  'order_draw',
  'order_void',
  'price_alert',
  'security_sign_in',
  'security_password',
  'security_two_factor_on',
  'security_two_factor_off',
  'security_two_factor_reset',
  'security_withdrawal_account',
  'security_withdrawal',
] as const;
