import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMetrics, type MetricsRole } from '@server/platform/metrics';

/**
 * The shipped monitoring (deploy/grafana/dashboard.json, deploy/prometheus/*.yml and their
 * services in docker-compose.yml) checked without a network: the files parse, and every PromQL
 * expression names only metrics some role's registry really exports, so a renamed metric cannot
 * leave a panel blank or an alert silent.
 */
const read = (p: string) => fs.readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');

const roles: MetricsRole[] = ['api', 'worker', 'gateway', 'sim'];

/** Every series name a role exports, histograms and summaries with their suffixes. */
function exportedNames(): Set<string> {
  const names = new Set<string>();
  for (const role of roles)
    for (const m of createMetrics(role).registry.getMetricsAsArray()) {
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

const alerts = parse(read('deploy/prometheus/alerts.yml')) as {
  groups: { name: string; rules: { alert: string; expr: string; labels?: object }[] }[];
};
const rules = alerts.groups.flatMap((g) => g.rules);

describe('monitoring shipped with the app', () => {
  const exported = exportedNames();

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
        .filter((n) => !exported.has(n))
        .map((n) => `${where}: ${n}`),
    );
    expect(unknown).toEqual([]);
    // Every metric of the product's own appears on some panel.
    const shown = new Set(exprs.flatMap(({ expr }) => metricNames(expr)));
    const own = [...exported].filter((n) =>
      /^(gateway_|sim_|orders_|order_|settlement_|http_|ledger_check|db_pool|redis_)/.test(n),
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
      ]),
    );
    for (const r of rules) {
      expect(typeof r.expr, r.alert).toBe('string');
      expect(metricNames(r.expr).length, r.alert).toBeGreaterThan(0);
    }
    const unknown = rules.flatMap((r) =>
      metricNames(r.expr)
        .filter((n) => !exported.has(n))
        .map((n) => `${r.alert}: ${n}`),
    );
    expect(unknown).toEqual([]);
  });

  it('Prometheus scrapes every app service of docker-compose.yml on :9464 and loads the rules', () => {
    const prom = parse(read('deploy/prometheus/prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: { static_configs: { targets: string[] }[] }[];
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
