import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { promtoolPath } from '@tests/support/tiers';

/**
 * The shipped Prometheus files through Prometheus's own tool (Debian's `prometheus` package,
 * the promtool tier): the rules and the scrape config load, and the rules' unit tests
 * (deploy/prometheus/alerts.test.yml: every alert firing when it should, with its labels, and
 * quiet on an idle or freshly started system) pass. monitoring.test.ts checks that every alert
 * has such cases.
 */
const dir = path.resolve(import.meta.dirname, '../../deploy/prometheus');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'promtool-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const promtool = (...args: string[]) => {
  const run = spawnSync(promtoolPath, args, { encoding: 'utf8', timeout: 120_000 });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
};

describe('deploy/prometheus through promtool', () => {
  it('the alert rules load', () => {
    const { code, out } = promtool('check', 'rules', path.join(dir, 'alerts.yml'));
    expect(out).toContain('SUCCESS');
    expect(code).toBe(0);
    const file = parse(fs.readFileSync(path.join(dir, 'alerts.yml'), 'utf8')) as {
      groups: { rules: unknown[] }[];
    };
    expect(out).toContain(`${file.groups.flatMap((g) => g.rules).length} rules found`);
  });

  it('the scrape config loads, with the rules it names', () => {
    // It names the rules where the compose container mounts them; here, the file itself.
    const config = fs
      .readFileSync(path.join(dir, 'prometheus.yml'), 'utf8')
      .replace('/etc/prometheus/alerts.yml', path.join(dir, 'alerts.yml'));
    expect(config).toContain(path.join(dir, 'alerts.yml'));
    fs.writeFileSync(path.join(tmp, 'prometheus.yml'), config);
    const { code, out } = promtool('check', 'config', path.join(tmp, 'prometheus.yml'));
    expect(out).toContain('SUCCESS');
    expect(code).toBe(0);
  });

  it("the rules' unit tests pass", () => {
    const { code, out } = promtool('test', 'rules', path.join(dir, 'alerts.test.yml'));
    expect(out).toContain('SUCCESS');
    expect(code).toBe(0);
  });

  it('the unit tests catch a broken rule (FeedGaps matching no series, as it once did)', () => {
    // Without ignoring(le) the count and the bucket share no label set: the rule never fires.
    const broken = fs
      .readFileSync(path.join(dir, 'alerts.yml'), 'utf8')
      .replace(
        '- ignoring(le) increase(sim_tick_gap_seconds_bucket{le="1"}',
        '- increase(sim_tick_gap_seconds_bucket{le="1"}',
      );
    expect(broken).not.toContain('ignoring(le) increase(sim_tick_gap_seconds_bucket{le="1"}');
    fs.writeFileSync(path.join(tmp, 'alerts.yml'), broken);
    fs.copyFileSync(path.join(dir, 'alerts.test.yml'), path.join(tmp, 'alerts.test.yml'));
    const { code, out } = promtool('test', 'rules', path.join(tmp, 'alerts.test.yml'));
    expect(code).not.toBe(0);
    expect(out).toContain('alertname: FeedGaps');
    expect(out).not.toContain('alertname: FeedStalled');
  });
});
