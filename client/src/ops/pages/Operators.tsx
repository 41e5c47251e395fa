import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import QRCode from 'qrcode';
import { isReservedOperatorName, operatorRoles } from '@shared/operators/names';
import * as ops from '@shared/operators/routes';
import type {
  NewOperator,
  Operator,
  OperatorCaller,
  OperatorListItem,
} from '@shared/operators/routes';
import { call, OpsError } from '../api';
import { useT } from '../useT';
import { dateTime } from '../format';
import { ReasonDialog } from '../components/ReasonDialog';
import { RoleDialog } from '../components/RoleDialog';

const roles = operatorRoles;
// The server's rule (shared/src/operators/names.ts), with the console's texts; the server also
// refuses a name that looks like an existing one (ACCOUNT_TAKEN).
const schema = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_-]{2,31}$/, 'operators.nameFormat')
    .refine((name) => !isReservedOperatorName(name), 'operators.reserved'),
  role: z.enum(roles),
});
type Fields = z.infer<typeof schema>;

type Change =
  | { action: 'disable' | 'enable'; reason: string }
  | { action: 'role'; role: Operator['role']; reason?: string }
  | { action: 'sessions' };

/**
 * The operators (admin): the list with each one's state and live sessions, a form to create one
 * (whose secrets are shown once), and per operator: disable or enable (with a reason), another
 * role, end their sessions. Each change is audited by the server.
 */
export function OperatorsPage() {
  const { t } = useT();
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['operators'],
    queryFn: () => call(ops.operators, {}),
  });
  const [dialog, setDialog] = useState<{
    kind: 'disable' | 'enable' | 'role';
    operator: Operator;
  } | null>(null);
  const { change, notice, setNotice } = useOperatorChange();
  const apply = async (operator: Operator, c: Change) => {
    setDialog(null);
    setNotice(null);
    await change.mutateAsync({ operator, change: c }).catch(() => undefined);
  };
  const [created, setCreated] = useState<NewOperator | null>(null);
  const onOff =
    dialog && dialog.kind !== 'role' ? { action: dialog.kind, operator: dialog.operator } : null;
  return (
    <div className="ops-page">
      <header className="ops-page-head">
        <h1>{t('nav.operators')}</h1>
      </header>
      <CreateOperatorForm
        onCreated={(answer) => {
          setCreated(answer);
          void client.invalidateQueries({ queryKey: ['operators'] });
        }}
      />
      {created && <Secrets created={created} onDone={() => setCreated(null)} />}
      {notice && (
        <p className={`ops-notice ops-${notice.tone}`} role="status" data-testid="operators-notice">
          {notice.text}
        </p>
      )}
      <OperatorsTable
        items={list.data?.items}
        busy={change.isPending}
        onDialog={(kind, operator) => setDialog({ kind, operator })}
        onEndSessions={(o) => void apply(o, { action: 'sessions' })}
      />
      {onOff && (
        <ReasonDialog
          title={t(
            onOff.action === 'disable' ? 'operators.disableTitle' : 'operators.enableTitle',
            {
              name: onOff.operator.name,
            },
          )}
          reasonLabel={t('users.reasonAudit')}
          confirm={t(`operators.${onOff.action}`)}
          max={500}
          onClose={() => setDialog(null)}
          onConfirm={(reason) => apply(onOff.operator, { action: onOff.action, reason })}
        />
      )}
      {dialog?.kind === 'role' && (
        <RoleDialog
          operator={dialog.operator}
          onClose={() => setDialog(null)}
          onConfirm={(role, reason) =>
            apply(dialog.operator, { action: 'role', role, ...(reason ? { reason } : {}) })
          }
        />
      )}
    </div>
  );
}

/** One change to an operator (disable, enable, role, end sessions) and the notice it leaves. */
function useOperatorChange() {
  const { t } = useT();
  const client = useQueryClient();
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const change = useMutation({
    mutationFn: ({
      operator,
      change,
    }: {
      operator: Operator;
      change: Change;
    }): Promise<Operator | { revoked: number }> => {
      const params = { id: operator.id };
      if (change.action === 'sessions') return call(ops.endOperatorSessions, { params });
      if (change.action === 'role') {
        const { action: _action, ...body } = change;
        return call(ops.setOperatorRole, { params, body });
      }
      const body = { reason: change.reason };
      return change.action === 'disable'
        ? call(ops.disableOperator, { params, body })
        : call(ops.enableOperator, { params, body });
    },
    onSuccess: (answer, { operator, change }) =>
      setNotice({
        tone: 'ok',
        text:
          'revoked' in answer
            ? t('operators.ended', { name: operator.name, count: answer.revoked })
            : t(`operators.changed.${change.action}`, {
                name: operator.name,
                role: t(`roles.${answer.role}`),
              }),
      }),
    onError: (err) =>
      setNotice({
        tone: 'error',
        text:
          err instanceof OpsError && err.code === 'LAST_ADMIN'
            ? t('operators.lastAdmin')
            : t('common.failed'),
      }),
    onSettled: () => client.invalidateQueries({ queryKey: ['operators'] }),
  });
  return { change, notice, setNotice };
}

/** The form that creates an operator; the server's refusals land on the name field. */
function CreateOperatorForm({ onCreated }: { onCreated: (created: NewOperator) => void }) {
  const { t } = useT();
  const { register, handleSubmit, formState, reset, setError } = useForm<Fields>({
    resolver: zodResolver(schema),
    defaultValues: { name: '', role: 'reviewer' },
  });
  const create = useMutation({
    mutationFn: (fields: Fields) => call(ops.createOperator, { body: fields }),
    onSuccess: (answer) => {
      onCreated(answer);
      reset();
    },
    onError: (err) =>
      setError('name', {
        message:
          err instanceof OpsError && err.code === 'ACCOUNT_TAKEN'
            ? 'operators.taken'
            : err instanceof OpsError && err.field === 'name'
              ? 'operators.nameFormat'
              : 'common.failed',
      }),
  });
  const nameError = formState.errors.name?.message;
  return (
    <form
      className="ops-filters"
      onSubmit={handleSubmit((fields) => create.mutateAsync(fields).catch(() => undefined))}
      noValidate
    >
      <label className="ops-field">
        <span>{t('operators.name')}</span>
        <input autoComplete="off" {...register('name')} />
        {nameError && <span className="ops-field-error">{t(nameError)}</span>}
      </label>
      <label className="ops-field">
        <span>{t('operators.role')}</span>
        <select {...register('role')}>
          {roles.map((r) => (
            <option key={r} value={r}>
              {t(`roles.${r}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="ops-btn ops-primary" disabled={create.isPending}>
        {t('operators.create')}
      </button>
    </form>
  );
}

/** The operators with their state, live sessions and the actions on each. */
function OperatorsTable({
  items,
  busy,
  onDialog,
  onEndSessions,
}: {
  items: OperatorListItem[] | undefined;
  busy: boolean;
  onDialog: (kind: 'disable' | 'enable' | 'role', operator: Operator) => void;
  onEndSessions: (operator: Operator) => void;
}) {
  const { t, lang } = useT();
  const me = useQueryClient().getQueryData<OperatorCaller>(['me']);
  return (
    <div className="ops-table-wrap">
      <table className="ops-table" data-testid="operators-table">
        <thead>
          <tr>
            <th>{t('operators.name')}</th>
            <th>{t('operators.role')}</th>
            <th>{t('operators.created')}</th>
            <th>{t('operators.state')}</th>
            <th>{t('operators.sessions')}</th>
            <th>{t('operators.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {items?.map((o) => (
            <tr key={o.id} data-testid="operator-row" data-name={o.name} data-disabled={o.disabled}>
              <td>
                {o.name}
                {me?.id === o.id && <span className="ops-muted"> ({t('operators.you')})</span>}
              </td>
              <td>{t(`roles.${o.role}`)}</td>
              <td>{dateTime(o.createdAt, lang)}</td>
              <td>
                {o.disabled ? (
                  <span className="ops-tag ops-tag-danger">{t('operators.disabled')}</span>
                ) : (
                  t('operators.active')
                )}
              </td>
              <td>{o.liveSessions}</td>
              <td>
                <span className="ops-actions ops-row-actions">
                  <button
                    type="button"
                    className={`ops-btn ${o.disabled ? '' : 'ops-danger'}`}
                    disabled={busy}
                    onClick={() => onDialog(o.disabled ? 'enable' : 'disable', o)}
                  >
                    {o.disabled ? t('operators.enable') : t('operators.disable')}
                  </button>
                  <button
                    type="button"
                    className="ops-btn"
                    disabled={busy}
                    onClick={() => onDialog('role', o)}
                  >
                    {t('operators.changeRole')}
                  </button>
                  <button
                    type="button"
                    className="ops-btn"
                    disabled={busy || o.liveSessions === 0}
                    onClick={() => onEndSessions(o)}
                  >
                    {t('operators.endSessions')}
                  </button>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The new operator's password, TOTP secret and its QR code: shown this once, never again. */
function Secrets({ created, onDone }: { created: NewOperator; onDone: () => void }) {
  const { t } = useT();
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(created.otpauthUri, { margin: 1, width: 200 }).then((url) => {
      if (live) setQr(url);
    });
    return () => {
      live = false;
    };
  }, [created.otpauthUri]);
  return (
    <section className="ops-secrets" data-testid="new-operator" aria-live="polite">
      <h2>{t('operators.createdTitle', { name: created.operator.name })}</h2>
      <p className="ops-warning">{t('operators.onceWarning')}</p>
      <div className="ops-secrets-body">
        {qr && <img src={qr} width={200} height={200} alt={t('operators.qr')} />}
        <dl className="ops-facts">
          <div>
            <dt>{t('operators.password')}</dt>
            <dd>
              <code data-testid="new-password">{created.password}</code>
            </dd>
          </div>
          <div>
            <dt>{t('operators.secret')}</dt>
            <dd>
              <code data-testid="new-secret">{created.totpSecret}</code>
            </dd>
          </div>
        </dl>
      </div>
      <button type="button" className="ops-btn" onClick={onDone}>
        {t('operators.done')}
      </button>
    </section>
  );
}
