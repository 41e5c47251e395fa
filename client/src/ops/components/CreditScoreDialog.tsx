import * as Radix from '@radix-ui/react-dialog';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useT } from '../useT';
import { DialogButtons } from './form-bits';

const schema = z.object({
  score: z.coerce
    .number<string>()
    .int('users.scoreRange')
    .min(0, 'users.scoreRange')
    .max(1000, 'users.scoreRange'),
  reason: z.string().trim().min(1, 'review.reasonRequired').max(500),
});

/** A new credit score (0-1000) with the reason kept in the audit log. */
export function CreditScoreDialog({
  current,
  onClose,
  onConfirm,
}: {
  current: number;
  onClose: () => void;
  onConfirm: (score: number, reason: string) => Promise<void> | void;
}) {
  const { t } = useT();
  const { register, handleSubmit, formState } = useForm<
    z.input<typeof schema>,
    unknown,
    z.output<typeof schema>
  >({
    resolver: zodResolver(schema),
    defaultValues: { score: String(current), reason: '' },
  });
  const errors = formState.errors;
  return (
    <Radix.Root open onOpenChange={(open) => !open && onClose()}>
      <Radix.Portal>
        <Radix.Overlay className="ops-overlay" />
        <Radix.Content className="ops-dialog" aria-describedby={undefined}>
          <Radix.Title>{t('users.setScore')}</Radix.Title>
          <form
            onSubmit={handleSubmit(({ score, reason }) => onConfirm(score, reason.trim()))}
            noValidate
          >
            <label className="ops-field">
              <span>{t('users.creditScore')}</span>
              <input inputMode="numeric" autoFocus {...register('score')} />
              {errors.score?.message && (
                <span className="ops-field-error">{t(errors.score.message)}</span>
              )}
            </label>
            <label className="ops-field">
              <span>{t('users.reasonAudit')}</span>
              <textarea rows={2} maxLength={500} {...register('reason')} />
              {errors.reason?.message && (
                <span className="ops-field-error">{t(errors.reason.message)}</span>
              )}
            </label>
            <DialogButtons
              confirm={t('users.save')}
              busy={formState.isSubmitting}

              onClose={onClose}
            />
          </form>
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}
