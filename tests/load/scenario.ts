import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/**
 * A load scenario: who connects (populations), when (phases), where (targets) and what makes the
 * run fail (thresholds). Written as JSON or YAML (tests/load/scenarios/ has examples); the CLI
 * flags build the same object for the quick path (`scenarioFromFlags`).
 */

const seconds = z.number().positive().max(86_400);
const channel = z.string().regex(/^(market|ticks:[A-Za-z0-9_-]{1,32})$/, 'market or ticks:<id>');

export const phaseSchema = z.discriminatedUnion('kind', [
  /** From the current count to `to` clients, linearly over `duration` seconds. */
  z.object({ kind: z.literal('ramp'), to: z.number().int().min(0), duration: seconds }),
  z.object({ kind: z.literal('hold'), duration: seconds }),
  /** Closes clients down to `to` (default 0), linearly over `duration`. */
  z.object({
    kind: z.literal('ramp-down'),
    to: z.number().int().min(0).default(0),
    duration: seconds,
  }),
  /**
   * Open model (k6's constant-arrival-rate): `rate` new clients a second for `duration`, each
   * staying `session` s from its connection (to the run's end if unset). An arrival due while
   * `maxClients` of this phase's are still connecting or connected is dropped, and counted.
   * `who`: anonymous subscribers (the default), or traders as the scenario's `traders` describe.
   */
  z.object({
    kind: z.literal('arrival'),
    rate: z.number().positive().max(10_000),
    duration: seconds,
    session: seconds.optional(),
    maxClients: z.number().int().min(1).max(1_000_000).optional(),
    who: z.enum(['subscribers', 'traders']).optional(),
  }),
]);
export type Phase = z.infer<typeof phaseSchema>;

export const tradersSchema = z.object({
  /** The fixed population; 0 when every trader arrives (an arrival phase `who: traders`). */
  count: z.number().int().min(0).max(10_000),
  /** `register`: new accounts (an invitation made with the operator token); `login`: existing ones. */
  accounts: z.enum(['register', 'login']).default('register'),
  /** Account names are `<prefix><n>`; with `login`, every account has `password`. */
  prefix: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,8}$/) // with the run's id and the number: within 20 characters
    .default('load'),
  password: z.string().min(8).max(64).default('load test pass 1'),
  /** Credits each trader this much (minor units, whole currency units) by a bank deposit the operator approves. */
  fund: z.number().int().min(1000).max(100_000_000).multipleOf(100).optional(),
  /** One order per trader every `orderEvery` seconds, the first at a random offset within it. */
  orderEvery: seconds,
  order: z
    .object({
      productId: z.string().min(1).default('BTCUSDT'),
      direction: z.enum(['up', 'down']).default('up'),
      amount: z.number().int().positive().default(1000),
      duration: z.number().int().positive().default(30),
    })
    .default({ productId: 'BTCUSDT', direction: 'up', amount: 1000, duration: 30 }),
  /**
   * Send each trader's HTTP calls with its own X-Forwarded-For (198.18.0.0/15, the benchmark
   * range): the per-address limits (10 registrations an hour) then see many clients. Only honoured
   * by an api whose TRUST_PROXY names this machine.
   */
  forwardedFor: z.boolean().default(false),
  /** Subscribed besides the user events, e.g. the product being traded. */
  channels: z.array(channel).max(20).default([]),
});
export type Traders = z.infer<typeof tradersSchema>;

export const scenarioSchema = z
  .object({
    /** Gateways (and, for traders, the api: `api`, default the first target). */
    targets: z.array(z.url()).min(1),
    api: z.url().optional(),
    /** Prometheus endpoints (METRICS_PORT listeners) of the processes under test. */
    metrics: z.array(z.url()).default([]),
    /** Deprecated (a secret in a file, and in the --json document): OPERATOR_TOKEN instead. */
    operatorToken: z.string().min(1).optional(),
    phases: z.array(phaseSchema).min(1),
    subscribers: z.object({ channels: z.array(channel).min(1).max(20) }),
    traders: tradersSchema.optional(),
    /** Every `every` s, `fraction` of the connected subscribers close and connect again. */
    churn: z.object({ every: seconds, fraction: z.number().gt(0).max(1) }).optional(),
    /** At `at` s, `fraction` of the subscribers drop at once and reconnect together. */
    storms: z.array(z.object({ at: seconds, fraction: z.number().gt(0).max(1) })).default([]),
    sample: z.number().int().min(0).max(100).default(5),
    connectTimeout: seconds.default(10),
    /**
     * Latency correction by the gateway's `time` answer: `auto` when a target is another host,
     * `sync` always (a gateway whose clock differs from the simulator's host), `local` never.
     */
    clock: z.enum(['auto', 'sync', 'local']).default('auto'),
    /** Same syntax as --fail-on, e.g. "p99<50ms,subscribeFailures=0". */
    failOn: z.string().optional(),
  })
  .strict()
  .refine((s) => s.traders || !s.phases.some((p) => p.kind === 'arrival' && p.who === 'traders'), {
    message: 'an arrival phase of traders needs the traders section (accounts, orders)',
    path: ['traders'],
  });
export type Scenario = z.infer<typeof scenarioSchema>;

/** Reads a scenario file (.json, .yaml or .yml); throws naming the file and each bad field. */
export function loadScenario(file: string): Scenario {
  const text = readFileSync(file, 'utf8');
  const raw: unknown = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  const r = scenarioSchema.safeParse(raw);
  if (!r.success)
    throw new Error(
      `${file}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  return r.data;
}

/**
 * The quick path: `--clients N --ramp R/s --duration D` as a ramp then a hold, or
 * `--arrival-rate R/s --duration D [--session S] [--max-clients C]` as one arrival phase.
 */
export function scenarioFromFlags(f: {
  url: string;
  clients: number;
  rampPerSec: number;
  durationSec: number;
  channels: string[];
  sample: number;
  connectTimeoutMs: number;
  metricsUrls: string[];
  arrival?: { rate: number; sessionSec?: number; maxClients?: number };
}): Scenario {
  const phases: Phase[] = [];
  if (f.arrival) {
    const { rate, sessionSec, maxClients } = f.arrival;
    phases.push({
      kind: 'arrival',
      rate,
      duration: f.durationSec,
      ...(sessionSec !== undefined ? { session: sessionSec } : {}),
      ...(maxClients !== undefined ? { maxClients } : {}),
    });
  } else {
    const rampSec = Math.min(f.durationSec, f.clients / f.rampPerSec);
    phases.push({ kind: 'ramp', to: f.clients, duration: Math.max(rampSec, 0.001) });
    if (f.durationSec - rampSec > 0)
      phases.push({ kind: 'hold', duration: f.durationSec - rampSec });
  }
  return scenarioSchema.parse({
    targets: [f.url],
    metrics: f.metricsUrls,
    phases,
    subscribers: { channels: f.channels },
    sample: f.sample,
    connectTimeout: f.connectTimeoutMs / 1000,
  });
}

/** When the last ramp or arrival phase ends, in ms from the start (0 without one). */
export function rampsEndMs(s: Pick<Scenario, 'phases'>): number {
  let at = 0;
  let end = 0;
  for (const p of s.phases) {
    at += p.duration * 1000;
    if (p.kind === 'ramp' || p.kind === 'arrival') end = at;
  }
  return end;
}

export const totalSeconds = (s: Pick<Scenario, 'phases'>) =>
  s.phases.reduce((a, p) => a + p.duration, 0);

/** The highest number of subscribers the phases ask for at once (for the report's header). */
export function peakClients(s: Pick<Scenario, 'phases'>): number {
  let now = 0;
  let peak = 0;
  for (const p of s.phases) {
    if (p.kind === 'ramp' || p.kind === 'ramp-down') now = p.to;
    if (p.kind === 'arrival')
      now += Math.min(
        p.maxClients ?? Infinity,
        Math.ceil(p.rate * Math.min(p.duration, p.session ?? p.duration)),
      );
    peak = Math.max(peak, now);
  }
  return peak;
}

/**
 * One planned connection: when it should open and, if the phases close it, when. Connect latency
 * is timed from `at`, the slot in the plan, not from when this process got round to it (a stalled
 * generator must not hide its own delay: coordinated omission).
 */
export interface Slot {
  at: number;
  leave?: number;
  /**
   * An arrival: its phase, whose `maxClients` it counts against. Its stay (`leave - at`) counts
   * from its connection, as a k6 iteration lasts as long as the system makes it: a slow connect
   * keeps the arrival's place longer, and may make later ones drop.
   */
  arrival?: { phase: number; n: number };
}

/** Turns the phases into planned slots, in ms from the start, sorted by `at`. */
export function planSlots(phases: Phase[]): Slot[] {
  const slots: Slot[] = [];
  const open: Slot[] = []; // connected at the current point of the plan, oldest first
  let t = 0;
  const live = (at: number) => open.filter((s) => s.leave === undefined || s.leave > at);
  let arrivals = 0; // numbered over the whole plan: trader arrivals get distinct accounts
  for (const [index, p] of phases.entries()) {
    const ms = p.duration * 1000;
    if (p.kind === 'ramp') {
      const from = live(t).length;
      const add = p.to - from;
      for (let i = 0; i < add; i++) {
        const s: Slot = { at: t + (ms * i) / Math.max(1, add) };
        slots.push(s);
        open.push(s);
      }
    } else if (p.kind === 'ramp-down') {
      const still = live(t);
      const drop = Math.max(0, still.length - p.to);
      for (let i = 0; i < drop; i++) still[still.length - 1 - i]!.leave = t + (ms * (i + 1)) / drop;
    } else if (p.kind === 'arrival') {
      const n = Math.round(p.rate * p.duration);
      for (let i = 0; i < n; i++) {
        const at = t + (1000 * i) / p.rate;
        const s: Slot = { at, arrival: { phase: index, n: arrivals++ } };
        if (p.session) s.leave = at + p.session * 1000;
        slots.push(s);
        // Traders are no subscribers: later ramps and ramp-downs count and close subscribers only.
        if (p.who !== 'traders') open.push(s);
      }
    }
    t += ms;
  }
  return slots.sort((a, b) => a.at - b.at);
}
