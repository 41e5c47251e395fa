import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as Radix from '@radix-ui/react-dialog';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import * as users from '@shared/accounts/ops.routes';
import type { OpsTwoFactor } from '@shared/accounts/ops.routes';
import type { OperatorCaller } from '@shared/operators/routes';
import { call, OpsError } from '../api';
import { useT, type OpsT } from '../useT';
import { dateTime } from '../format';
import { Facts } from '../pages/queue-details';
import { DialogButtons } from './form-bits';

/** The refusals the console words itself; anything else is "did not work". */
const known = [
  'TWO_FACTOR_OFF',
  'TWO_FACTOR_RESET_PENDING',
  'TWO_FACTOR_RESET_NONE',
  'TWO_FACTOR_RESET_SAME_OPERATOR',
  'TWO_FACTOR_RESET_NAMED_OPERATOR',
] as const;

const requestSchema = z.object({
  reason: z.string().trim().min(1, 'users.twoFactor.reasonRequired').max(500),
  ticket: z.string().trim().min(1, 'users.twoFactor.ticketRequired').max(64),
});
type RequestForm = z.infer<typeof requestSchema>;

/** Asks for the reason (what support checked) and the ticket before a reset is requested. */
function RequestDialog({
  account,
  onClose,
  onConfirm,
}: {
  account: string;
  onClose: () => void;
  onConfirm: (body: RequestForm) => Promise<void>;
}) {
  const { t } = useT();
  const { register, handleSubmit, formState } = useForm<RequestForm>({
    resolver: zodResolver(requestSchema),
    defaultValues: { reason: '', ticket: '' },
  });
  const { errors } = formState;
  return (
    <Radix.Root open onOpenChange={(open) => !open && onClose()}>
      <Radix.Portal>
        <Radix.Overlay className="ops-overlay" />
        <Radix.Content className="ops-dialog" data-testid="tfa-reset-dialog">
          <Radix.Title>{t('users.twoFactor.requestTitle', { user: account })}</Radix.Title>
          <Radix.Description className="ops-muted">
            {t('users.twoFactor.requestNote')}
          </Radix.Description>
          <form onSubmit={handleSubmit(onConfirm)} noValidate>
            <label className="ops-field">
              <span>{t('users.twoFactor.ticket')}</span>
              <input maxLength={64} autoFocus {...register('ticket')} />
              {errors.ticket?.message && (
                <span className="ops-field-error">{t(errors.ticket.message)}</span>
              )}
            </label>
            <label className="ops-field">
              <span>{t('users.twoFactor.reason')}</span>
              <textarea rows={3} maxLength={500} {...register('reason')} />
              {errors.reason?.message && (
                <span className="ops-field-error">{t(errors.reason.message)}</span>
              )}
            </label>
            <DialogButtons
              confirm={t('users.twoFactor.request')}
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

/** The state, the recovery codes left, the trusted devices, and a pending reset's facts. */
function factsOf(t: OpsT, lang: string, twoFactor: OpsTwoFactor): [string, ReactNode][] {
  const { reset } = twoFactor;
  const state = twoFactor.enabled
    ? t('users.twoFactor.onSince', { time: dateTime(twoFactor.since, lang) })
    : t('users.twoFactor.off');
  const rows: [string, ReactNode][] = [
    [t('users.twoFactor.state'), <span data-testid="tfa-state">{state}</span>],
    [t('users.twoFactor.codesLeft'), twoFactor.recoveryCodesLeft],
    [t('users.twoFactor.devices'), twoFactor.trustedDevices],
  ];
  if (reset)
    rows.push(
      [
        t('users.twoFactor.requested'),
        t('users.twoFactor.by', {
          who: reset.requestedBy,
          time: dateTime(reset.requestedAt, lang),
        }),
      ],
      [t('users.twoFactor.ticket'), reset.ticket],
      [t('users.twoFactor.reason'), reset.reason],
      [
        t('users.twoFactor.approved'),
        reset.approvedBy
          ? t('users.twoFactor.by', {
              who: reset.approvedBy,
              time: dateTime(reset.approvedAt, lang),
            })
          : t('users.twoFactor.awaiting'),
      ],
      [
        t('users.twoFactor.effective'),
        <strong data-testid="tfa-reset-effective">
          {reset.effectiveAt
            ? dateTime(reset.effectiveAt, lang)
            : t('users.twoFactor.afterApproval')}
        </strong>,
      ],
    );
  return rows;
}

type ResetAction = { action: 'request'; body: RequestForm } | { action: 'approve' | 'cancel' };

/**
 * A user's two-factor on the profile (never a secret or a code: the server sends none) and the
 * recovery procedure of docs/OPERATIONS.md: support requests a reset with the ticket and what
 * was checked, another operator, an admin, approves it, either cancels it; it takes effect a
 * delay after the approval, shown here.
 */
export function TwoFactorPanel({
  userId,
  account,
  twoFactor,
  setNotice,
}: {
  userId: string;
  account: string;
  twoFactor: OpsTwoFactor;
  setNotice: (text: string) => void;
}) {
  const { t, lang } = useT();
  const client = useQueryClient();
  const me = client.getQueryData<OperatorCaller>(['me']);
  const [asking, setAsking] = useState(false);
  const act = useMutation({
    mutationFn: (a: ResetAction) => {
      const params = { id: userId };
      if (a.action === 'request')
        return call(users.requestTwoFactorReset, { params, body: a.body });
      return a.action === 'approve'
        ? call(users.approveTwoFactorReset, { params })
        : call(users.cancelUserTwoFactorReset, { params });
    },
    onSuccess: (_state, { action }) => setNotice(t(`users.twoFactor.done.${action}`)),
    onError: (err) => {
      const code = err instanceof OpsError ? known.find((c) => c === err.code) : undefined;
      setNotice(code ? t(`users.twoFactor.errors.${code}`) : t('common.failed'));
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['user', userId] }),
  });
  const { reset } = twoFactor;
  const rows = factsOf(t, lang, twoFactor);
  // Four eyes: the approval is an admin's, and never the requester's own.
  const mayApprove =
    reset && !reset.approvedBy && me?.role === 'admin' && me.name !== reset.requestedBy;
  return (
    <section className="ops-card" data-testid="user-two-factor">
      <h2>
        {t('users.twoFactor.title')}
        {reset && (
          <span className="ops-tag ops-tag-danger">{t('users.twoFactor.resetPending')}</span>
        )}
      </h2>
      <Facts rows={rows} />
      {(twoFactor.enabled || reset) && (
        <span className="ops-actions">
          {twoFactor.enabled && !reset && (
            <button
              type="button"
              className="ops-btn ops-danger"
              data-testid="tfa-reset-request"
              onClick={() => setAsking(true)}
            >
              {t('users.twoFactor.request')}
            </button>
          )}
          {mayApprove && (
            <button
              type="button"
              className="ops-btn ops-danger"
              data-testid="tfa-reset-approve"
              disabled={act.isPending}
              onClick={() => act.mutate({ action: 'approve' })}
            >
              {t('users.twoFactor.approve')}
            </button>
          )}
          {reset && (
            <button
              type="button"
              className="ops-btn"
              data-testid="tfa-reset-cancel"
              disabled={act.isPending}
              onClick={() => act.mutate({ action: 'cancel' })}
            >
              {t('users.twoFactor.cancel')}
            </button>
          )}
        </span>
      )}
      {asking && (
        <RequestDialog
          account={account}
          onClose={() => setAsking(false)}
          onConfirm={async (body) => {
            setAsking(false);
            await act.mutateAsync({ action: 'request', body }).catch(() => undefined);
          }}
        />
      )}
    </section>
  );
}
