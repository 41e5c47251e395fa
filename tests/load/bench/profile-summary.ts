import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Summarises a V8 .cpuprofile (from `npm run bench:gateway -- --profile`, or node --cpu-prof):
 * self time per function and per package, top first.
 * `npx tsx tests/load/bench/profile-summary.ts <file.cpuprofile> [--top 25]`
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Summary {
  totalMs: number;
  functions: { name: string; ms: number }[];
  packages: { name: string; ms: number }[];
}

/** Where a frame's code lives: a package, Node's own code, our code, or V8's pseudo-frames. */
export function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return 'app';
}

export function summarise(p: Profile): Summary {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++)
    self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0));
  const fns = new Map<string, number>();
  const pkgs = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const where = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'} ${where}`.trim();
    const pkg = packageOf(url, functionName);
    fns.set(`${name} [${pkg}]`, (fns.get(`${name} [${pkg}]`) ?? 0) + us);
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us);
    total += us;
  }
  const sorted = (m: Map<string, number>) =>
    [...m].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
  return { totalMs: total / 1000, functions: sorted(fns), packages: sorted(pkgs) };
}

function main(): void {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  const topIdx = args.indexOf('--top');
  const top = topIdx >= 0 ? Number(args[topIdx + 1]) : 25;
  if (!file) {
    console.error(
      'usage: npx tsx tests/load/bench/profile-summary.ts <file.cpuprofile> [--top 25]',
    );
    process.exit(2);
  }
  const s = summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const pct = (ms: number) => `${((100 * ms) / s.totalMs).toFixed(1).padStart(5)}%`;
  console.log(`${file}: ${s.totalMs.toFixed(0)} ms of samples`);
  console.log('\nself time by package');
  for (const p of s.packages.slice(0, 15))
    console.log(`${pct(p.ms)} ${p.ms.toFixed(0).padStart(7)} ms  ${p.name}`);
  console.log(`\nself time by function (top ${top})`);
  for (const f of s.functions.slice(0, top))
    console.log(`${pct(f.ms)} ${f.ms.toFixed(0).padStart(7)} ms  ${f.name}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
