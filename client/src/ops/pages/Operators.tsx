import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import QRCode from 'qrcode';
import { api, OpsError } from '../api';
import { useT } from '../useT';
import { dateTime } from '../format';
import type { NewOperator, Operator } from '../types';

const roles = ['reviewer', 'support', 'admin'] as const;
const schema = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[\p{L}\p{N}._-]{3,32}$/u, 'operators.nameFormat'),
  role: z.enum(roles),
});
type Fields = z.infer<typeof schema>;

/** The operators (admin): the list, and a form to create one, whose secrets are shown once. */
export function OperatorsPage() {
  const { t, lang } = useT();
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['operators'],
    queryFn: () => api<{ items: Operator[] }>('/ops/operators'),
  });
  const [created, setCreated] = useState<NewOperator | null>(null);
  const { register, handleSubmit, formState, reset, setError } = useForm<Fields>({
    resolver: zodResolver(schema),
    defaultValues: { name: '', role: 'reviewer' },
  });
  const create = useMutation({
    mutationFn: (fields: Fields) =>
      api<NewOperator>('/ops/operators', { method: 'POST', body: fields }),
    onSuccess: (answer) => {
      setCreated(answer);
      reset();
      void client.invalidateQueries({ queryKey: ['operators'] });
    },
    onError: (err) =>
      setError('name', {
        message:
          err instanceof OpsError && err.code === 'ACCOUNT_TAKEN'
            ? 'operators.taken'
            : 'common.failed',
      }),
  });
  const nameError = formState.errors.name?.message;
  return (
    <div className="ops-page">
      <header className="ops-page-head">
        <h1>{t('nav.operators')}</h1>
      </header>
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
      {created && <Secrets created={created} onDone={() => setCreated(null)} />}
      <div className="ops-table-wrap">
        <table className="ops-table" data-testid="operators-table">
          <thead>
            <tr>
              <th>{t('operators.name')}</th>
              <th>{t('operators.role')}</th>
              <th>{t('operators.created')}</th>
              <th>{t('operators.state')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((o) => (
              <tr key={o.id}>
                <td>{o.name}</td>
                <td>{t(`roles.${o.role}`)}</td>
                <td>{dateTime(o.createdAt, lang)}</td>
                <td>{o.disabled ? t('operators.disabled') : t('operators.active')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
