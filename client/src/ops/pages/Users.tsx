import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import * as users from '@shared/accounts/ops.routes';
import { call } from '../api';
import { useT } from '../useT';
import { dateTime } from '../format';
import { go } from '../router';
import { UserProfile } from './UserProfile';

/** Users (support, admin): find one by id, account or phone; `#/users/<id>` is their profile. */
export function UsersPage({ id }: { id?: string }) {
  if (id) return <UserProfile id={id} />;
  return <UserSearch />;
}

/** The last search, so "back to the results" finds it again. */
let lastSearch = '';

function UserSearch() {
  const { t, lang } = useT();
  const [q, setQ] = useState(lastSearch);
  const results = useQuery({
    queryKey: ['users', q],
    queryFn: () => call(users.searchUsers, { query: { q } }),
    enabled: q !== '',
    refetchInterval: false,
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const value = new FormData(e.currentTarget).get('q');
    lastSearch = typeof value === 'string' ? value.trim() : '';
    setQ(lastSearch);
  };
  return (
    <div className="ops-page">
      <header className="ops-page-head">
        <h1>{t('nav.users')}</h1>
      </header>
      <form className="ops-filters" onSubmit={submit} role="search">
        <label className="ops-field">
          <span>{t('users.search')}</span>
          <input name="q" defaultValue={q} placeholder={t('users.searchHint')} autoFocus />
        </label>
        <button type="submit" className="ops-btn ops-primary">
          {t('users.find')}
        </button>
      </form>
      {q !== '' && (
        <div className="ops-table-wrap">
          <table className="ops-table" data-testid="users-table">
            <thead>
              <tr>
                <th>{t('users.id')}</th>
                <th>{t('users.account')}</th>
                <th>{t('users.phone')}</th>
                <th>{t('users.nickname')}</th>
                <th>{t('users.creditScore')}</th>
                <th>{t('users.kyc')}</th>
                <th>{t('users.state')}</th>
                <th>{t('users.created')}</th>
              </tr>
            </thead>
            <tbody>
              {results.data?.items.map((u) => (
                <tr key={u.id} className="ops-row-link" onClick={() => go('users', u.id)}>
                  <td>{u.id}</td>
                  <td>
                    <a href={`#/users/${u.id}`}>{u.account}</a>
                  </td>
                  <td>{u.phone}</td>
                  <td>{u.nickname}</td>
                  <td>{u.creditScore}</td>
                  <td>{t(`kycStatus.${u.kycStatus}`)}</td>
                  <td>{u.frozen ? t('users.frozen') : t('users.active')}</td>
                  <td>{dateTime(u.createdAt, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {results.isSuccess && results.data.items.length === 0 && (
            <p className="ops-muted">{t('users.none')}</p>
          )}
          {results.isError && <p className="ops-alert">{t('common.loadFailed')}</p>}
        </div>
      )}
    </div>
  );
}
