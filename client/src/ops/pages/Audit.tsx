import { useState, type FormEvent, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import * as ops from '@shared/operators/routes';
import type { AuditLine } from '@shared/operators/routes';
import { call } from '../api';
import { useT, type OpsT } from '../useT';
import { dateTime } from '../format';
import { href } from '../router';

const PAGE = 50;

/**
 * The logs (admin), each newest first and page by page: the audit log of changes (filtered by
 * operator, action and target) at `#/audit`, and the access log of operators' reads of personal
 * data (filtered by operator and user) at `#/audit/access`.
 */
export function AuditPage({ tab }: { tab?: string }) {
  const { t } = useT();
  const access = tab === 'access';
  return (
    <div className="ops-page">
      <header className="ops-page-head">
        <h1>{t('nav.audit')}</h1>
        <nav className="ops-tabs" aria-label={t('audit.tabs')}>
          <a href={href('audit')} aria-current={access ? undefined : 'page'}>
            {t('audit.changes')}
          </a>
          <a href={href('audit', 'access')} aria-current={access ? 'page' : undefined}>
            {t('audit.access')}
          </a>
        </nav>
      </header>
      {access ? <AccessLog /> : <ChangesLog />}
    </div>
  );
}

/** Filters, and the cursors of the pages seen so far (back is the one before). */
function usePaged<F extends Record<string, string>>(initial: F) {
  const [filters, setFilters] = useState(initial);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const next = Object.fromEntries(
      Object.keys(initial).map((name) => {
        const value = data.get(name);
        return [name, typeof value === 'string' ? value.trim() : ''];
      }),
    ) as F;
    setFilters(next);
    setCursors([undefined]);
  };
  return { filters, cursor: cursors[cursors.length - 1], cursors, setCursors, apply };
}

function Filters({
  names,
  values,
  onSubmit,
  labels,
}: {
  names: readonly string[];
  values: Record<string, string>;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  labels: (name: string) => { label: string; hint: string };
}) {
  const { t } = useT();
  return (
    <form className="ops-filters" onSubmit={onSubmit}>
      {names.map((name) => (
        <label key={name} className="ops-field">
          <span>{labels(name).label}</span>
          <input name={name} defaultValue={values[name]} placeholder={labels(name).hint} />
        </label>
      ))}
      <button type="submit" className="ops-btn ops-primary">
        {t('audit.filter')}
      </button>
    </form>
  );
}

function Pager({
  cursors,
  setCursors,
  nextCursor,
}: {
  cursors: (string | undefined)[];
  setCursors: (update: (c: (string | undefined)[]) => (string | undefined)[]) => void;
  nextCursor: string | null | undefined;
}) {
  const { t } = useT();
  return (
    <div className="ops-row-end">
      <button
        type="button"
        className="ops-btn"
        disabled={cursors.length < 2}
        onClick={() => setCursors((c) => c.slice(0, -1))}
      >
        {t('audit.newer')}
      </button>
      <button
        type="button"
        className="ops-btn"
        disabled={!nextCursor}
        onClick={() => {
          if (nextCursor) setCursors((c) => [...c, nextCursor]);
        }}
      >
        {t('audit.older')}
      </button>
    </div>
  );
}

/** A failed sign-in's outcome beside its status: why it failed, or the lock-out it caused. */
function outcome(line: AuditLine, t: OpsT): ReactNode {
  const after = line.after as { failure?: string; lockedOut?: string } | null;
  const why = after?.failure ?? after?.lockedOut;
  return why ? (
    <span className="ops-muted"> · {t(`audit.outcome.${why}`, { defaultValue: why })}</span>
  ) : null;
}

function ChangesLog() {
  const { t, lang } = useT();
  const paged = usePaged({ operator: '', action: '', target: '' });
  const page = useQuery({
    queryKey: ['audit', paged.filters, paged.cursor],
    queryFn: () =>
      call(ops.auditLog, { query: { ...paged.filters, limit: PAGE, cursor: paged.cursor } }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <Filters
        names={['operator', 'action', 'target']}
        values={paged.filters}
        onSubmit={paged.apply}
        labels={(name) => ({ label: t(`audit.${name}`), hint: t(`audit.${name}Hint`) })}
      />
      <div className="ops-table-wrap">
        <table className="ops-table" data-testid="audit-table">
          <thead>
            <tr>
              <th>{t('audit.at')}</th>
              <th>{t('audit.operator')}</th>
              <th>{t('audit.action')}</th>
              <th>{t('audit.target')}</th>
              <th>{t('audit.reason')}</th>
              <th>{t('audit.status')}</th>
              <th>{t('audit.address')}</th>
            </tr>
          </thead>
          <tbody>
            {page.data?.items.map((line) => (
              <tr key={line.id}>
                <td>{dateTime(line.at, lang)}</td>
                <td>
                  {line.operator} <span className="ops-muted">{line.role}</span>
                </td>
                <td>
                  <code>{line.action}</code>
                </td>
                <td>{line.target ?? ''}</td>
                <td>{line.reason ?? ''}</td>
                <td>
                  {line.status}
                  {outcome(line, t)}
                </td>
                <td>{line.address ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {page.isSuccess && page.data.items.length === 0 && (
          <p className="ops-muted">{t('audit.none')}</p>
        )}
        {page.isError && <p className="ops-alert">{t('common.loadFailed')}</p>}
      </div>
      <Pager
        cursors={paged.cursors}
        setCursors={paged.setCursors}
        nextCursor={page.data?.nextCursor}
      />
    </>
  );
}

function AccessLog() {
  const { t, lang } = useT();
  const paged = usePaged({ operator: '', user: '' });
  const page = useQuery({
    queryKey: ['access-log', paged.filters, paged.cursor],
    queryFn: () =>
      call(ops.accessLog, { query: { ...paged.filters, limit: PAGE, cursor: paged.cursor } }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <Filters
        names={['operator', 'user']}
        values={paged.filters}
        onSubmit={paged.apply}
        labels={(name) =>
          name === 'user'
            ? { label: t('access.user'), hint: t('access.userHint') }
            : { label: t('audit.operator'), hint: t('audit.operatorHint') }
        }
      />
      <div className="ops-table-wrap">
        <table className="ops-table" data-testid="access-table">
          <thead>
            <tr>
              <th>{t('audit.at')}</th>
              <th>{t('audit.operator')}</th>
              <th>{t('access.kind')}</th>
              <th>{t('access.user')}</th>
              <th>{t('access.upload')}</th>
              <th>{t('audit.address')}</th>
            </tr>
          </thead>
          <tbody>
            {page.data?.items.map((line) => (
              <tr key={line.id}>
                <td>{dateTime(line.at, lang)}</td>
                <td>
                  {line.operator} <span className="ops-muted">{line.role}</span>
                </td>
                <td>{t(`access.kinds.${line.kind}`)}</td>
                <td>
                  <a href={href('users', line.userId)}>#{line.userId}</a>
                </td>
                <td>{line.uploadId ? <code>{line.uploadId}</code> : ''}</td>
                <td>{line.address}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {page.isSuccess && page.data.items.length === 0 && (
          <p className="ops-muted">{t('access.none')}</p>
        )}
        {page.isError && <p className="ops-alert">{t('common.loadFailed')}</p>}
      </div>
      <Pager
        cursors={paged.cursors}
        setCursors={paged.setCursors}
        nextCursor={page.data?.nextCursor}
      />
    </>
  );
}
