/**
 * `npm run verify:tape`: checks a product's recorded tape against the commitments of the live
 * feed (docs/FAIRNESS.md) from public data only: the periods (GET /api/market/fairness) and the
 * tape (GET /api/market/ticks). For every revealed period it checks that the secret hashes to the
 * commitment published before the period, that the commitment was stored before the period's
 * first tick, that the period starts where the previous one ended, and it recomputes every tick's
 * price and quantity from the secret, the published model and the tape's times.
 */
import type { FairnessPeriod, TapeTickDto } from '@shared/market/model';
import { unitsToPrice } from '@shared/price';
import {
  commitmentOf,
  decodeState,
  encodeState,
  replayTicks,
  tapePriceUnits,
  type PeriodStart,
} from './fairness';

/** Where the verifier reads: the public API, or anything that answers the same. */
export interface TapeSource {
  periods(productId: string, from: number, to: number): Promise<FairnessPeriod[]>;
  /** Every recorded tick with from ≤ ts < to, in sequence order. */
  ticks(productId: string, from: number, to: number): Promise<TapeTickDto[]>;
}

export type PeriodStatus = 'ok' | 'failed' | 'sealed' | 'empty' | 'pruned';

export interface PeriodReport {
  periodStart: number;
  periodEnd: number;
  status: PeriodStatus;
  ticks: number;
  problems: string[];
}

export interface TapeReport {
  productId: string;
  periods: PeriodReport[];
  /** Recorded ticks in the range that no period covers (other than history before the first). */
  uncovered: number;
  /** Ticks before the first commitment: the first start's seeded backfill of history. */
  history: number;
  failed: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * One period's verdict, its ticks that count as history, and where its replay ended (null:
 * unknown).
 */
interface PeriodCheck {
  report: PeriodReport;
  history: number;
  end: PeriodStart | null;
}

/**
 * Recomputes a period's live ticks from its secret and model, from its recorded start: each
 * mismatch is a problem of the period. Where the replay ended, when it reached the period's end.
 */
function replayPeriod(
  productId: string,
  p: FairnessPeriod,
  secret: string,
  start: PeriodStart,
  live: TapeTickDto[],
  fail: (problem: string) => void,
): PeriodStart | null {
  const replay = replayTicks(
    productId,
    p.model,
    Buffer.from(secret, 'hex'),
    start,
    live.map((t) => ({
      seq: t.seq,
      ts: t.ts,
      price: tapePriceUnits(t.price, p.model),
      qty: t.qty,
    })),
  );
  const price = (units: number) => unitsToPrice(units, p.model.precision);
  for (const m of replay.mismatches) {
    if (m.field === 'price')
      fail(
        `tick seq ${m.seq}: price ${price(m.actual)} on the tape, ${price(m.expected)} recomputed`,
      );
    else if (m.field === 'qty')
      fail(`tick seq ${m.seq}: quantity ${m.actual} on the tape, ${m.expected} recomputed`);
    else fail(`tick seq ${m.seq} is missing from the tape (the next recorded is ${m.actual})`);
  }
  return replay.complete ? replay.end : null;
}

/**
 * Checks one period: its secret against its commitment, the commitment's time against the
 * period's ticks, its start against where the previous period ended (`prevEnd`), then replays it.
 */
async function verifyPeriod(
  source: TapeSource,
  productId: string,
  p: FairnessPeriod,
  prevEnd: PeriodStart | null,
): Promise<PeriodCheck> {
  const report: PeriodReport = {
    periodStart: p.periodStart,
    periodEnd: p.periodEnd,
    status: 'ok',
    ticks: 0,
    problems: [],
  };
  const failed = () => report.status === 'failed';
  const fail = (problem: string) => {
    report.status = 'failed';
    report.problems.push(problem);
  };

  if (p.secret === null) {
    report.status = 'sealed';
    return { report, history: 0, end: null };
  }
  if (
    !/^[0-9a-f]{64}$/.test(p.secret) ||
    commitmentOf(Buffer.from(p.secret, 'hex')) !== p.commitment
  ) {
    fail(`the revealed secret does not match the commitment ${p.commitment}`);
    return { report, history: 0, end: null };
  }
  const tape = await source.ticks(productId, p.periodStart, p.periodEnd);
  // Ticks up to the recorded start (all of them when there is none) came before the period's
  // first live tick: the first start's seeded backfill, made before the commitment existed.
  const pre = p.start ? tape.filter((x) => x.seq <= p.start!.seq) : tape;
  const live = p.start ? tape.filter((x) => x.seq > p.start!.seq) : [];
  for (const x of pre)
    if (x.ts > p.committedAt)
      fail(`tick seq ${x.seq} was recorded after the commitment but is not drawn from it`);
  const history = pre.length;
  report.ticks = live.length;
  if (!p.start || failed()) {
    if (!failed()) report.status = 'empty';
    return { report, history, end: null };
  }
  if (!live.length) {
    report.status = 'pruned';
    return { report, history, end: null };
  }
  const start: PeriodStart = {
    seq: p.start.seq,
    ts: p.start.ts,
    state: decodeState({ logPrice: p.start.logPrice, logVol: p.start.logVol }),
  };
  if (p.committedAt > live[0]!.ts)
    fail(`committed at ${iso(p.committedAt)}, after its first tick at ${iso(live[0]!.ts)}`);
  if (prevEnd) {
    const same =
      prevEnd.seq === start.seq &&
      prevEnd.ts === start.ts &&
      JSON.stringify(encodeState(prevEnd.state)) === JSON.stringify(encodeState(start.state));
    if (!same)
      fail(
        `starts at seq ${start.seq} in a state that is not where the previous period ended (seq ${prevEnd.seq})`,
      );
  }
  if (live[0]!.seq > start.seq + 1) {
    // The tape keeps raw ticks for a limited time: the period's beginning is gone.
    if (!failed()) report.status = 'pruned';
    report.problems.push(`the tape starts at seq ${live[0]!.seq}, not ${start.seq + 1}`);
    return { report, history, end: null };
  }
  return { report, history, end: replayPeriod(productId, p, p.secret, start, live, fail) };
}

/**
 * Verifies the periods of `productId` overlapping [from, to). Never throws on what it finds:
 * every problem is a line of the report; `failed` counts the periods that failed.
 */
export async function verifyTape(
  source: TapeSource,
  productId: string,
  from: number,
  to: number,
): Promise<TapeReport> {
  const periods = (await source.periods(productId, from, to)).sort(
    (a, b) => a.periodStart - b.periodStart,
  );
  const reports: PeriodReport[] = [];
  let uncovered = 0;
  let history = 0;
  // The end of the last period replayed in full: where the next period must start.
  let prevEnd: PeriodStart | null = null;
  let prevPeriodEnd: number | null = null;

  for (const p of periods) {
    if (prevPeriodEnd === null) {
      history += (await source.ticks(productId, from, Math.max(from, p.periodStart))).length;
    } else if (p.periodStart > prevPeriodEnd) {
      uncovered += (await source.ticks(productId, prevPeriodEnd, p.periodStart)).length;
    }
    prevPeriodEnd = p.periodEnd;
    const checked = await verifyPeriod(source, productId, p, prevEnd);
    reports.push(checked.report);
    history += checked.history;
    prevEnd = checked.end;
  }
  if (prevPeriodEnd !== null && prevPeriodEnd < to)
    uncovered += (await source.ticks(productId, prevPeriodEnd, to)).length;
  if (prevPeriodEnd === null) history += (await source.ticks(productId, from, to)).length;
  return {
    productId,
    periods: reports,
    uncovered,
    history,
    failed: reports.filter((r) => r.status === 'failed').length,
  };
}

/** The public API as a tape source (pages through the tape 1 000 ticks at a time). */
export function httpTapeSource(baseUrl: string, fetchImpl: typeof fetch = fetch): TapeSource {
  const get = async <T>(path: string, query: Record<string, string | number>): Promise<T> => {
    const url = new URL(path, baseUrl);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const res = await fetchImpl(url);
    if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    async periods(productId, from, to) {
      const out: FairnessPeriod[] = [];
      let cursor = from;
      for (;;) {
        const page = await get<FairnessPeriod[]>('/api/market/fairness', {
          product: productId,
          from: cursor,
          to,
          limit: 500,
        });
        out.push(...page.filter((p) => !out.some((q) => q.periodStart === p.periodStart)));
        if (page.length < 500) return out;
        cursor = page.at(-1)!.periodEnd;
      }
    },
    async ticks(productId, from, to) {
      const out: TapeTickDto[] = [];
      if (to <= from) return out;
      for (;;) {
        const page = await get<TapeTickDto[]>('/api/market/ticks', {
          product: productId,
          from,
          to: to - 1,
          after: out.at(-1)?.seq ?? 0,
          limit: 1000,
        });
        out.push(...page);
        if (page.length < 1000) return out;
      }
    },
  };
}
