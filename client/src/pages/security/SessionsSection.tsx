import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  endOtherSessions,
  endSession,
  getSessions,
  type SecuritySession,
} from '@client/api/security';
import { ConfirmDialog } from '@client/components/ConfirmDialog';
import { countryName } from '@client/components/wallet/countries';
import { errorText } from '@client/components/error-text';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { useFormat } from '@client/i18n/useFormat';
import { showToast, useApiQuery } from '@client/state';
import { reload, securityKeys } from './security-queries';

/** One session: device, place, first and last seen; this device marked, the others' Sign out. */
function SessionRow({
  session,
  busy,
  offline,
  onEnd,
}: {
  session: SecuritySession;
  busy: boolean;
  offline: boolean;
  onEnd: () => void;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const place = session.place;
  return (
    <li className="session" data-testid={`session-${session.id}`} data-current={session.current}>
      <div className="session__text">
        <p className="session__device">
          <span>{session.device}</span>
          {session.current && (
            <span className="security-badge security-badge--on" data-testid="session-current">
              {t('security.sessions.thisDevice')}
            </span>
          )}
        </p>
        {place && (
          <p className="card__note" data-testid="session-place">
            {/* The city as the database names it, the country in the reader's language. */}
            {[place.city, countryName(place.country, i18n.language)].filter(Boolean).join(' · ')}
          </p>
        )}
        <p className="card__note num">
          {t('security.sessions.firstSeen', { time: format.dateTime(session.createdAt) })}
        </p>
        <p className="card__note num">
          {t('security.sessions.lastSeen', { time: format.dateTime(session.lastSeenAt) })}
        </p>
      </div>
      {!session.current && (
        <button
          type="button"
          className="button button--secondary-danger button--small"
          data-testid={`session-end-${session.id}`}
          disabled={busy || offline}
          aria-busy={busy || undefined}
          onClick={onEnd}
        >
          {t('security.sessions.end')}
        </button>
      )}
    </li>
  );
}

/** The signed-in sessions, and signing one or all of the others out. */
export function SessionsSection({ offline }: { offline: boolean }) {
  const { t } = useTranslation();
  const list = useApiQuery(securityKeys.sessions, () => getSessions(), {
    perVisit: true,
    refetchOnShow: true,
  });
  const [ending, setEnding] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [endingAll, setEndingAll] = useState(false);

  const endOne = async (id: string) => {
    setEnding(id);
    try {
      await endSession(id);
      showToast(t('security.sessions.endedOne'));
    } catch (error) {
      showToast(errorText(t, error));
    } finally {
      await reload(securityKeys.sessions);
      setEnding(null);
    }
  };
  const endAll = async () => {
    setEndingAll(true);
    try {
      const { ended } = await endOtherSessions();
      showToast(t('security.sessions.endedOthers', { count: ended }));
    } catch (error) {
      showToast(errorText(t, error));
    } finally {
      await reload(securityKeys.sessions);
      setEndingAll(false);
      setAsking(false);
    }
  };

  const others = list.status === 'ready' ? list.data.filter((s) => !s.current).length : 0;
  return (
    <section className="card security-card" aria-labelledby="sessions-title" data-testid="sessions">
      <h2 id="sessions-title" className="card__title">
        {t('security.sessions.title')}
      </h2>
      {list.status === 'loading' && <LoadingState />}
      {list.status === 'error' && <ErrorState error={list.error} onRetry={list.retry} />}
      {list.status === 'ready' && list.data.length === 0 && <EmptyState />}
      {list.status === 'ready' && list.data.length > 0 && (
        <ul className="session-list">
          {list.data.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              busy={ending === session.id}
              offline={offline}
              onEnd={() => void endOne(session.id)}
            />
          ))}
        </ul>
      )}
      {others > 0 && (
        <button
          type="button"
          className="button button--block button--secondary-danger"
          data-testid="sessions-end-others"
          disabled={offline}
          onClick={() => setAsking(true)}
        >
          {t('security.sessions.endOthers')}
        </button>
      )}
      {asking && (
        <ConfirmDialog
          title={t('security.sessions.endOthers')}
          message={t('security.sessions.endOthersConfirm', { count: others })}
          confirmLabel={t('security.sessions.end')}
          danger
          busy={endingAll}
          onConfirm={() => void endAll()}
          onCancel={() => setAsking(false)}
        />
      )}
    </section>
  );
}
