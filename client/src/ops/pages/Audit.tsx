import { useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, query } from '../api';
import { useT } from '../useT';
import { dateTime } from '../format';
import type { AuditLine, Page } from '../types';

const PAGE = 50;

/** The audit log (admin): newest first, filtered by operator, action and target, page by page. */
export function AuditPage() {
  const { t, lang } = useT();
  const [filters, setFilters] = useState({ operator: '', action: '', target: '' });
  // The cursors of the pages seen so far: back is the one before.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useQuery({
    queryKey: ['audit', filters, cursor],
    queryFn: () => api<Page<AuditLine>>(`/ops/audit${query({ ...filters, limit: PAGE, cursor })}`),
    placeholderData: keepPreviousData,
  });
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value.trim() : '';
    };
    setFilters({ operator: text('operator'), action: text('action'), target: text('target') });
    setCursors([undefined]);
  };
  return (
    <div className="ops-page">
      <header className="ops-page-head">
        <h1>{t('nav.audit')}</h1>
      </header>
      <form className="ops-filters" onSubmit={apply}>
        {(['operator', 'action', 'target'] as const).map((name) => (
          <label key={name} className="ops-field">
            <span>{t(`audit.${name}`)}</span>
            <input name={name} defaultValue={filters[name]} placeholder={t(`audit.${name}Hint`)} />
          </label>
        ))}
        <button type="submit" className="ops-btn ops-primary">
          {t('audit.filter')}
        </button>
      </form>
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
                <td>{line.status}</td>
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
          disabled={!page.data?.nextCursor}
          onClick={() => {
            const next = page.data?.nextCursor;
            if (next) setCursors((c) => [...c, next]);
          }}
        >
          {t('audit.older')}
        </button>
      </div>
    </div>
  );
}
