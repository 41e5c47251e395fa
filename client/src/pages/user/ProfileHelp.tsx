import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogDescription, DialogTitle } from '@client/components/Dialog';

/**
 * What the profile's badges mean ("Standard account", the verification badge, the credit score
 * when SHOW_CREDIT_SCORE shows it): an ⓘ button opening a short explanation.
 */
export function ProfileHelp({ withScore }: { withScore: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        type="button"
        className="profile__help"
        data-testid="profile-help"
        aria-label={t('account.user.help.open')}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <span aria-hidden="true">i</span>
      </button>
      {open && (
        <Dialog
          className="dialog"
          testId="profile-help-dialog"
          initialFocus={closeRef}
          described
          onClose={() => setOpen(false)}
        >
          <DialogTitle className="dialog__title">{t('account.user.help.title')}</DialogTitle>
          <DialogDescription asChild>
            <dl className="profile-help">
              <dt>{t('account.user.ordinaryUser')}</dt>
              <dd>{t('account.user.help.account')}</dd>
              <dt>{t('account.user.help.kycTerm')}</dt>
              <dd>{t('account.user.help.kyc')}</dd>
              {withScore && (
                <>
                  <dt>{t('account.user.creditScore')}</dt>
                  <dd data-testid="credit-score-help">{t('account.user.help.creditScore')}</dd>
                </>
              )}
            </dl>
          </DialogDescription>
          <div className="dialog__actions">
            <button ref={closeRef} type="button" className="button" onClick={() => setOpen(false)}>
              {t('account.user.help.close')}
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
