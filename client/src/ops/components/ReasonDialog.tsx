import * as Radix from '@radix-ui/react-dialog';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useT } from '../useT';
import { DialogButtons } from './form-bits';

/** Asks for a reason (a rejection, a freeze) before the action; Escape or Cancel closes it. */
export function ReasonDialog({
  title,
  confirm,
  onClose,
  onConfirm,
  max = 200,
  reasonLabel,
}: {
  title: string;
  confirm: string;
  /** What the reason is for (default: shown to the user). */
  reasonLabel?: string;
  onClose: () => void;
  onConfirm: (reason: string) => Promise<void> | void;
  max?: number;
}) {
  const { t } = useT();
  const schema = z.object({ reason: z.string().trim().min(1, 'review.reasonRequired').max(max) });
  const { register, handleSubmit, formState } = useForm<{ reason: string }>({
    resolver: zodResolver(schema),
    defaultValues: { reason: '' },
  });
  const message = formState.errors.reason?.message;
  return (
    <Radix.Root open onOpenChange={(open) => !open && onClose()}>
      <Radix.Portal>
        <Radix.Overlay className="ops-overlay" />
        <Radix.Content
          className="ops-dialog"
          aria-describedby={undefined}
          data-testid="reason-dialog"
        >
          <Radix.Title>{title}</Radix.Title>
          <form onSubmit={handleSubmit(async ({ reason }) => onConfirm(reason.trim()))} noValidate>
            <label className="ops-field">
              <span>{reasonLabel ?? t('review.reason')}</span>
              <textarea rows={3} maxLength={max} autoFocus {...register('reason')} />
              {message && <span className="ops-field-error">{t(message)}</span>}
            </label>
            <DialogButtons
              confirm={confirm}
              busy={formState.isSubmitting}
              danger
              onClose={onClose}
            />
          </form>
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}
