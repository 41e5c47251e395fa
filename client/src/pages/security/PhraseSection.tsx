import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { tradePasswordSchema } from '@shared/accounts/model';
import { ANTI_PHISHING } from '@shared/security/model';
import { getAntiPhishing, setAntiPhishing } from '@client/api/security';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { checked, ruled, type MessageKey } from '@client/components/form/validation';
import { TradePasswordField } from '@client/components/wallet/TradePasswordField';
import { showToast, useApiQuery } from '@client/state';
import { reload, securityKeys } from './security-queries';

/** The phrase rule of the contract (4-20 letters, digits or spaces), in this page's words. */
export function phraseProblem(value: string): MessageKey | null {
  const phrase = value.trim();
  if (phrase === '') return 'common.required';
  const fits =
    phrase.length >= ANTI_PHISHING.min &&
    phrase.length <= ANTI_PHISHING.max &&
    /^[\p{L}\p{N} ]+$/u.test(phrase);
  // Worded by this page's locale (security/): a message key is any translated key.
  return fits ? null : ('security.phrase.rule' as MessageKey);
}

const tradePassword = checked(tradePasswordSchema, 'account.rules.tradePassword');
const setSchema = z.object({ phrase: ruled(phraseProblem), tradePassword });
const removeSchema = z.object({ phrase: z.string(), tradePassword });

/** Setting, changing or removing the phrase: with the transaction password. */
function PhraseForm({
  current,
  remove,
  onClose,
}: {
  current: string | null;
  remove: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm(
    { phrase: remove ? '' : (current ?? ''), tradePassword: '' },
    remove ? removeSchema : setSchema,
  );
  const send = form.onSubmit(async (values) => {
    await setAntiPhishing(remove ? null : values.phrase.trim(), values.tradePassword);
    await reload(securityKeys.phrase);
    showToast(remove ? t('security.phrase.removed') : t('security.phrase.saved'));
    onClose();
  });
  return (
    <form id={form.formId} className="form" onSubmit={send} noValidate data-testid="phrase-form">
      <FormError message={form.formError} />
      {remove ? (
        <p className="card__note">{t('security.phrase.removeNote')}</p>
      ) : (
        <TextField
          {...form.field('phrase')}
          label={t('security.phrase.label')}
          hint={t('security.phrase.hint')}
          testId="phrase-input"
          maxLength={ANTI_PHISHING.max}
          autoComplete="off"
        />
      )}
      <TradePasswordField {...form.field('tradePassword')} />
      <SubmitButton busy={form.submitting}>
        {remove ? t('security.phrase.remove') : t('security.phrase.save')}
      </SubmitButton>
      <button type="button" className="button button--secondary" onClick={onClose}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

/** The anti-phishing phrase: shown in security messages and on sign-in, to tell real from fake. */
export function PhraseSection({ offline }: { offline: boolean }) {
  const { t } = useTranslation();
  const state = useApiQuery(securityKeys.phrase, () => getAntiPhishing(), { perVisit: true });
  const [open, setOpen] = useState<'set' | 'remove' | null>(null);
  const phrase = state.status === 'ready' ? state.data.phrase : null;
  return (
    <section className="card security-card" aria-labelledby="phrase-title" data-testid="phrase">
      <h2 id="phrase-title" className="card__title">
        {t('security.phrase.title')}
      </h2>
      <p className="card__note">{t('security.phrase.about')}</p>
      {state.status === 'loading' && <LoadingState />}
      {state.status === 'error' && <ErrorState error={state.error} onRetry={state.retry} />}
      {state.status === 'ready' && open !== null && (
        <PhraseForm current={phrase} remove={open === 'remove'} onClose={() => setOpen(null)} />
      )}
      {state.status === 'ready' && open === null && (
        <>
          <p className="security-phrase" data-testid="phrase-value">
            {phrase ?? <span className="kv__empty">{t('security.phrase.notSet')}</span>}
          </p>
          <div className="button-row">
            <button
              type="button"
              className="button button--secondary"
              data-testid="phrase-set"
              disabled={offline}
              onClick={() => setOpen('set')}
            >
              {phrase ? t('security.phrase.change') : t('security.phrase.set')}
            </button>
            {phrase && (
              <button
                type="button"
                className="button button--secondary-danger"
                data-testid="phrase-remove"
                disabled={offline}
                onClick={() => setOpen('remove')}
              >
                {t('security.phrase.remove')}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
