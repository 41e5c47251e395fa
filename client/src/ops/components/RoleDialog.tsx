import * as Radix from '@radix-ui/react-dialog';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useT } from '../useT';
import type { Operator } from '@shared/operators/routes';
import { DialogButtons } from './form-bits';

const roles = ['reviewer', 'support', 'admin'] as const;
const schema = z.object({ role: z.enum(roles), reason: z.string().trim().max(500) });

/** Another role for an operator, with an optional reason kept in the audit log. */
export function RoleDialog({
  operator,
  onClose,
  onConfirm,
}: {
  operator: Operator;
  onClose: () => void;
  onConfirm: (role: Operator['role'], reason: string) => Promise<void> | void;
}) {
  const { t } = useT();
  const { register, handleSubmit, formState } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { role: operator.role, reason: '' },
  });
  return (
    <Radix.Root open onOpenChange={(open) => !open && onClose()}>
      <Radix.Portal>
        <Radix.Overlay className="ops-overlay" />
        <Radix.Content
          className="ops-dialog"
          aria-describedby={undefined}
          data-testid="role-dialog"
        >
          <Radix.Title>{t('operators.roleTitle', { name: operator.name })}</Radix.Title>
          <form
            onSubmit={handleSubmit(({ role, reason }) => onConfirm(role, reason.trim()))}
            noValidate
          >
            <label className="ops-field">
              <span>{t('operators.newRole')}</span>
              <select autoFocus {...register('role')}>
                {roles.map((r) => (
                  <option key={r} value={r}>
                    {t(`roles.${r}`)}
                  </option>
                ))}
              </select>
            </label>
            <label className="ops-field">
              <span>{t('operators.reasonOptional')}</span>
              <textarea rows={2} maxLength={500} {...register('reason')} />
            </label>
            <DialogButtons
              confirm={t('operators.save')}
              busy={formState.isSubmitting}

              onClose={onClose}
            />
          </form>
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}
