import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  createGatewayPrimaryMetrics,
  createMetrics,
  type MetricsRole,
} from '@server/platform/metrics';

/**
 * The shipped monitoring (deploy/grafana/dashboard.json, deploy/prometheus/*.yml and their
 * services in docker-compose.yml) checked without a network: the files parse, and every PromQL
 * expression names only metrics some role's registry really exports (or a recording rule of
 * alerts.yml records, or Prometheus itself makes: `up`), so a renamed metric cannot leave a panel
 * blank or an alert silent; and every alert has unit tests in alerts.test.yml that promtool runs
 * (tests/deploy/alerts.promtool.test.ts), one case where it fires and one where it stays quiet.
 */
const read = (p: string) => fs.readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');

const roles: MetricsRole[] = ['api', 'worker', 'gateway', 'sim', 'watcher'];

/** Every series name a role exports, histograms and summaries with their suffixes. */
function exportedNames(): Set<string> {
  const names = new Set<string>();
  const registries = [
    ...roles.map((role) => createMetrics(role).registry),
    // A gateway cluster's primary (GATEWAY_PROCESSES > 1).
    createGatewayPrimaryMetrics().registry,
  ];
  for (const registry of registries)
    for (const m of registry.getMetricsAsArray()) {
      const { name, type } = m as unknown as { name: string; type: string };
      names.add(name);
      if (type === 'histogram') for (const s of ['_bucket', '_count', '_sum']) names.add(name + s);
      if (type === 'summary') for (const s of ['_count', '_sum']) names.add(name + s);
    }
  return names;
}

const keywords = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/** The metric names a PromQL expression selects (functions, labels, keywords and durations left out). */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // strings
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // ranges and subqueries
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' '); // groupings
  const names: string[] = [];
  for (const m of bare.matchAll(/(?<![\w.:])([A-Za-z_:][\w:]*)(\s*\()?/g)) {
    const [, name, call] = m;
    if (call || keywords.has(name!.toLowerCase())) continue;
    names.push(name!);
  }
  return names;
}

interface Panel {
  title?: string;
  type?: string;
  panels?: Panel[];
  targets?: { expr?: string }[];
}

const dashboard = JSON.parse(read('deploy/grafana/dashboard.json')) as {
  uid: string;
  title: string;
  panels: Panel[];
};
const panelExprs = (panels: Panel[]): { where: string; expr: string }[] =>
  panels.flatMap((p) => [
    ...(p.targets ?? []).flatMap((t) => (t.expr ? [{ where: p.title ?? '?', expr: t.expr }] : [])),
    ...panelExprs(p.panels ?? []),
  ]);

interface RulesFile {
  groups: {
    name: string;
    rules: { alert?: string; record?: string; expr: string; labels?: object }[];
  }[];
}
interface RuleTests {
  rule_files: string[];
  tests: {
    name?: string;
    alert_rule_test?: { alertname: string; eval_time: string; exp_alerts?: unknown[] }[];
  }[];
}
const alerts = parse(read('deploy/prometheus/alerts.yml')) as RulesFile;
const allRules = alerts.groups.flatMap((g) => g.rules);
const rules = allRules.filter((r) => r.alert) as { alert: string; expr: string }[];
/** Recording rules: the series name they record → their expression. */
const recorded = new Map(allRules.flatMap((r) => (r.record ? [[r.record, r.expr] as const] : [])));
/** Series Prometheus makes itself for every target. */
const prometheusOwn = new Set(['up']);

/**
 * What alerts.test.yml leaves untested: alerts with no case where they fire, alerts with no case
 * where they stay quiet, and cases naming an alert the rules do not have (a renamed alert, whose
 * cases would pass by expecting nothing of a rule that no longer exists).
 */
function untestedAlerts(file: RulesFile, tests: RuleTests) {
  const names = file.groups.flatMap((g) => g.rules.flatMap((r) => (r.alert ? [r.alert] : [])));
  const cases = tests.tests.flatMap((t) => t.alert_rule_test ?? []);
  const firing = new Set(cases.filter((c) => c.exp_alerts?.length).map((c) => c.alertname));
  const quiet = new Set(cases.filter((c) => !c.exp_alerts?.length).map((c) => c.alertname));
  return {
    neverFiring: names.filter((n) => !firing.has(n)),
    neverQuiet: names.filter((n) => !quiet.has(n)),
    unknown: [...new Set(cases.map((c) => c.alertname))].filter((n) => !names.includes(n)),
  };
}

describe('monitoring shipped with the app', () => {
  const exported = exportedNames();
  const known = (n: string) => exported.has(n) || recorded.has(n) || prometheusOwn.has(n);
  /** The metrics an expression reads, through the recording rules it names. */
  const readThrough = (expr: string): string[] =>
    metricNames(expr).flatMap((n) => (recorded.has(n) ? readThrough(recorded.get(n)!) : [n]));

  it('the metric-name parser finds names and only names', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{status=~"5.."}[5m]))) > 0.5 and time() - x_total offset 5m',
      ),
    ).toEqual(['http_request_duration_seconds_bucket', 'x_total']);
    // A misspelt metric would be caught.
    expect(exported.has('settlement_backlog')).toBe(false);
  });

  it('the Grafana dashboard parses and every query names an exported metric', () => {
    expect(dashboard.uid).toBeTruthy();
    const exprs = panelExprs(dashboard.panels);
    expect(exprs.length).toBeGreaterThan(15);
    const unknown = exprs.flatMap(({ where, expr }) =>
      metricNames(expr)
        .filter((n) => !known(n))
        .map((n) => `${where}: ${n}`),
    );
    expect(unknown).toEqual([]);
    // Every metric of the product's own appears on some panel (directly or through a recording
    // rule the panel shows).
    const shown = new Set(exprs.flatMap(({ expr }) => readThrough(expr)));
    const own = [...exported].filter((n) =>
      /^(gateway_|sim_|orders?_|settlement_|http_|ledger_check|db_pool|redis_|chain_)/.test(n),
    );
    const base = (n: string) => n.replace(/_(bucket|count|sum)$/, '');
    expect(own.filter((n) => ![...shown].some((s) => base(s) === base(n)))).toEqual([]);
  });

  it('the alert rules parse, cover the required cases and name only exported metrics', () => {
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'SettlementBacklog',
        'LedgerCheckFailing',
        'NoTicks',
        'EventLoopDelay',
        'GatewaySocketsDropping',
        'ApiDown',
        'GatewayDown',
        'SimulatorDown',
        'WorkerDown',
        'WatcherDown',
        'RoleNotScraped',
        'GatewayProcessDown',
        'NoWatcherLeads',
        'ChainWatcherStuck',
        'ChainHeadNotMoving',
      ]),
    );
    for (const r of allRules) {
      const name = r.alert ?? r.record ?? '?';
      expect(typeof r.expr, name).toBe('string');
      expect(metricNames(r.expr).length, name).toBeGreaterThan(0);
      // A recorded series is named level:metric:operations, so it cannot pass for a metric.
      if (r.record) expect(r.record, name).toMatch(/^[a-z_]+:[a-z_0-9]+:[a-z_0-9]+$/);
    }
    const unknown = allRules.flatMap((r) =>
      metricNames(r.expr)
        .filter((n) => !known(n))
        .map((n) => `${r.alert ?? r.record}: ${n}`),
    );
    expect(unknown).toEqual([]);
    // Every recorded series is read by some alert or panel.
    const read = [
      ...rules.map((r) => r.expr),
      ...panelExprs(dashboard.panels).map(({ expr }) => expr),
    ].flatMap(metricNames);
    expect([...recorded.keys()].filter((n) => !read.includes(n))).toEqual([]);
  });

  it('every alert has a unit test where it fires and one where it stays quiet', () => {
    const tests = parse(read('deploy/prometheus/alerts.test.yml')) as RuleTests;
    expect(tests.rule_files).toEqual(['alerts.yml']);
    expect(untestedAlerts(alerts, tests)).toEqual({ neverFiring: [], neverQuiet: [], unknown: [] });

    // The comparison itself finds what is missing: drop every case of one alert, keep only the
    // quiet cases of another, and name an alert the rules lack.
    const cases = (keep: (c: { alertname: string; exp_alerts?: unknown[] }) => boolean) =>
      tests.tests.map((t) => ({ ...t, alert_rule_test: (t.alert_rule_test ?? []).filter(keep) }));
    const doctored: RuleTests = {
      ...tests,
      tests: [
        ...cases(
          (c) => c.alertname !== 'ApiDown' && !(c.alertname === 'NoTicks' && c.exp_alerts?.length),
        ),
        { alert_rule_test: [{ alertname: 'NoTick', eval_time: '1m', exp_alerts: [] }] },
      ],
    };
    expect(untestedAlerts(alerts, doctored)).toEqual({
      neverFiring: ['ApiDown', 'NoTicks'],
      neverQuiet: ['ApiDown'],
      unknown: ['NoTick'],
    });
    // And an alert added to the rules without tests.
    const added: RulesFile = {
      groups: [...alerts.groups, { name: 'new', rules: [{ alert: 'Untested', expr: 'up == 0' }] }],
    };
    expect(untestedAlerts(added, tests)).toEqual({
      neverFiring: ['Untested'],
      neverQuiet: ['Untested'],
      unknown: [],
    });
  });

  it('Prometheus scrapes every app service of docker-compose.yml on :9464 and loads the rules', () => {
    const prom = parse(read('deploy/prometheus/prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: {
        static_configs: { targets: string[]; labels?: Record<string, string> }[];
      }[];
    };
    expect(prom.rule_files).toContain('/etc/prometheus/alerts.yml');
    const targets = prom.scrape_configs.flatMap((c) => c.static_configs.flatMap((s) => s.targets));
    const compose = parse(read('docker-compose.yml'), { merge: true }) as {
      services: Record<string, { command?: string[]; volumes?: string[]; image?: string }>;
    };
    const appServices = Object.entries(compose.services)
      .filter(([, s]) => s.command?.some((c) => c.startsWith('dist/server/')))
      .map(([name]) => name);
    expect(appServices.length).toBeGreaterThan(3);
    expect(targets.sort()).toEqual(appServices.map((s) => `${s}:9464`).sort());
    // Every target carries the `service` label the alert rules read: the role compose runs there.
    const roleOf = (service: string) =>
      /^dist\/server\/(\w+)\.js$/.exec(
        compose.services[service]?.command?.find((c) => c.startsWith('dist/server/')) ?? '',
      )?.[1];
    const labelled = prom.scrape_configs
      .flatMap((c) => c.static_configs)
      .flatMap((g) => g.targets.map((t) => [t, g.labels?.service]));
    expect(labelled).toEqual(labelled.map(([t]) => [t, roleOf(t!.split(':')[0]!)]));
    // Prometheus and Grafana run from these very files.
    const mounts = (name: string) => compose.services[name]?.volumes ?? [];
    expect(mounts('prometheus')).toEqual(
      expect.arrayContaining([
        './deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
        './deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro',
      ]),
    );
    expect(mounts('grafana')).toEqual(
      expect.arrayContaining([
        './deploy/grafana/dashboard.json:/var/lib/grafana/dashboards/trade.json:ro',
        './deploy/grafana/provisioning:/etc/grafana/provisioning:ro',
      ]),
    );
  });
});
