import { useQuery } from '@tanstack/react-query';
import * as users from '@shared/accounts/ops.routes';
import type { OpsDashboard } from '@shared/accounts/ops.routes';
import { call } from '../api';
import { useT } from '../useT';
import { money } from '../format';
import { href } from '../router';
import { OpsTable } from '../components/UserContext';

/** The house at a glance (admin): the review backlog, open exposure per product, today's result. */
export function DashboardPage() {
  const { t, lang } = useT();
  const board = useQuery({
    queryKey: ['dashboard'],
    queryFn: () => call(users.opsDashboard, {}),
    // The processes report every 2 s (the server's process-reports.ts): read as often.
    refetchInterval: 2000,
  });
  const d = board.data;
  if (!d)
    return (
      <p className={board.isError ? 'ops-alert' : 'ops-muted'}>
        {board.isError ? t('common.loadFailed') : t('common.loading')}
      </p>
    );
  const tiles = [
    { label: t('nav.deposits'), value: d.pending.deposits, link: href('deposits') },
    { label: t('nav.withdrawals'), value: d.pending.withdrawals, link: href('withdrawals') },
    { label: t('nav.kyc'), value: d.pending.kyc, link: href('kyc') },
  ];
  // What the house pays out if a direction wins, minus what it keeps of the other side's stakes.
  const worst = (e: OpsDashboard['exposure'][number]) =>
    Math.max(e.up.pays - e.up.stake - e.down.stake, e.down.pays - e.down.stake - e.up.stake);
  return (
    <div className="ops-page" data-testid="dashboard">
      <header className="ops-page-head">
        <h1>{t('nav.dashboard')}</h1>
      </header>
      <div className="ops-tiles">
        {tiles.map((tile) => (
          <a key={tile.label} className="ops-tile" href={tile.link}>
            <span className="ops-muted">{t('dashboard.pending', { what: tile.label })}</span>
            <strong>{tile.value}</strong>
          </a>
        ))}
        <div className="ops-tile">
          <span className="ops-muted">{t('dashboard.housePnlToday')}</span>
          <strong className={d.housePnlToday < 0 ? 'ops-neg' : 'ops-pos'}>
            {money(d.housePnlToday, lang)}
          </strong>
        </div>
        <div className="ops-tile" data-testid="early-closes">
          <span className="ops-muted">{t('dashboard.earlyCloses')}</span>
          <strong className={d.earlyCloses.housePnlToday < 0 ? 'ops-neg' : 'ops-pos'}>
            {money(d.earlyCloses.housePnlToday, lang)}
          </strong>
          <span className="ops-muted">
            {t('dashboard.earlyClosesCount', { count: d.earlyCloses.count })}
          </span>
        </div>
        <div className="ops-tile">
          <span className="ops-muted">{t('dashboard.placements')}</span>
          <strong>{d.placementsLastMinute}</strong>
        </div>
      </div>
      <LiveFigures live={d.live} />
      <FeedFigures feed={d.feed} />
      <h2>{t('dashboard.exposure')}</h2>
      <div className="ops-table-wrap">
        <table className="ops-table ops-numeric" data-testid="exposure-table">
          <thead>
            <tr>
              <th>{t('dashboard.product')}</th>
              <th>{t('dashboard.upStake')}</th>
              <th>{t('dashboard.upPays')}</th>
              <th>{t('dashboard.downStake')}</th>
              <th>{t('dashboard.downPays')}</th>
              <th>{t('dashboard.worst')}</th>
            </tr>
          </thead>
          <tbody>
            {d.exposure.map((e) => (
              <tr key={e.productId}>
                <td>{e.productId}</td>
                <td>{money(e.up.stake, lang)}</td>
                <td>{money(e.up.pays, lang)}</td>
                <td>{money(e.down.stake, lang)}</td>
                <td>{money(e.down.pays, lang)}</td>
                <td className={worst(e) > 0 ? 'ops-neg' : undefined}>
                  {money(Math.max(0, worst(e)), lang)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {d.exposure.length === 0 && <p className="ops-muted">{t('dashboard.noExposure')}</p>}
      </div>
      <p className="ops-muted">{t('dashboard.worstNote')}</p>
    </div>
  );
}

const ms = (n: number, lang: string) =>
  `${new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(n)} ms`;

/** What the running processes said in their last reports: sockets, tick rate, settlement lag. */
function LiveFigures({ live }: { live: OpsDashboard['live'] }) {
  const { t, lang } = useT();
  const number = (n: number) => new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(n);
  const s = live.settlement;
  return (
    <section className="ops-live" aria-labelledby="live-title" data-testid="live-figures">
      <h2 id="live-title">{t('dashboard.live')}</h2>
      <div className="ops-tiles">
        <div className="ops-tile">
          <span className="ops-muted">{t('dashboard.sockets')}</span>
          <strong data-testid="live-sockets">{number(live.sockets)}</strong>
        </div>
        <div className="ops-tile">
          <span className="ops-muted">{t('dashboard.ticksPerSecond')}</span>
          <strong data-testid="live-ticks">
            {live.ticksPerSecond === null ? '--' : number(live.ticksPerSecond)}
          </strong>
        </div>
        <div className="ops-tile">
          <span className="ops-muted">{t('dashboard.lagP99')}</span>
          <strong data-testid="live-lag">
            {s?.settledLastMinute ? ms(s.lagP99Ms, lang) : '--'}
          </strong>
          <span className="ops-muted">
            {!s
              ? t('dashboard.noSettlement')
              : s.settledLastMinute
                ? t('dashboard.lagDetail', {
                    p50: ms(s.lagP50Ms, lang),
                    count: s.settledLastMinute,
                  })
                : t('dashboard.noneSettled')}
          </span>
        </div>
      </div>
      {live.gateways.length > 0 ? (
        <OpsTable
          numeric
          testId="gateway-table"
          heads={[t('dashboard.gateway'), t('dashboard.sockets'), t('dashboard.ticksPerSecond')]}
          rows={live.gateways.map((g) => [g.id, number(g.sockets), number(g.ticksPerSecond)])}
        />
      ) : (
        <p className="ops-alert">{t('dashboard.noGateways')}</p>
      )}
      <p className="ops-muted">{t('dashboard.liveNote', { count: live.processes })}</p>
    </section>
  );
}

/**
 * Each product's feed over the last hour: the largest gap between its ticks and the orders void
 * for want of ticks (DECISIONS.md, Voids stay rare, visible and uninducible).
 */
function FeedFigures({ feed }: { feed: OpsDashboard['feed'] }) {
  const { t, lang } = useT();
  const pct = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 2 });
  const gapClass = (g: number | null) =>
    g === null ? undefined : g >= 3000 ? 'ops-neg' : g >= 1000 ? 'ops-warn' : undefined;
  return (
    <section aria-labelledby="feed-title" data-testid="feed-figures">
      <h2 id="feed-title">{t('dashboard.feed')}</h2>
      <div className="ops-table-wrap">
        <table className="ops-table ops-numeric" data-testid="feed-table">
          <thead>
            <tr>
              <th>{t('dashboard.product')}</th>
              <th>{t('dashboard.largestGap')}</th>
              <th>{t('dashboard.settledHour')}</th>
              <th>{t('dashboard.voidsStale')}</th>
              <th>{t('dashboard.voidsNoEntry')}</th>
              <th>{t('dashboard.voidRate')}</th>
            </tr>
          </thead>
          <tbody>
            {feed.map((f) => {
              const voids = f.voids.FEED_STALE + f.voids.NO_ENTRY_TICK;
              return (
                <tr key={f.productId}>
                  <td>{f.productId}</td>
                  <td className={gapClass(f.largestGapMs)}>
                    {f.largestGapMs === null ? t('dashboard.noGap') : ms(f.largestGapMs, lang)}
                  </td>
                  <td>{f.settled}</td>
                  <td className={f.voids.FEED_STALE > 0 ? 'ops-neg' : undefined}>
                    {f.voids.FEED_STALE}
                  </td>
                  <td className={f.voids.NO_ENTRY_TICK > 0 ? 'ops-neg' : undefined}>
                    {f.voids.NO_ENTRY_TICK}
                  </td>
                  <td>{f.settled ? pct.format(voids / f.settled) : t('dashboard.noGap')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="ops-muted">{t('dashboard.feedNote')}</p>
    </section>
  );
}
