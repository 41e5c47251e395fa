/**
 * What the early close's sell value costs per open order per tick (`npm run bench:sell`):
 * the published formula (shared/src/orders/sell-value.ts, stdlib's ln and erfc) over generated
 * orders, beside two baselines run in the same process: the same arithmetic on the engine's
 * Math.log and an erfc-free logistic stand-in (what determinism across engines costs), and the
 * win payout alone (the floor of any per-order work). The client computes it for each open
 * position on each drawn tick; the server once per sale. Timings depend on the machine and what
 * else runs on it: the load average is printed beside them. Not a test: nothing passes or fails.
 */
import os from 'node:os';
import { winPayout } from '@shared/rates';
import { MS_PER_YEAR, sellValue, type SellInputs } from '@shared/orders/sell-value';

const N = 200_000;
const ROUNDS = 5;

function orders(): SellInputs[] {
  let x = 11;
  const random = () => (x = (x * 48_271) % 2_147_483_647) / 2_147_483_647;
  return Array.from({ length: N }, () => {
    const entryPrice = 1_000 + Math.floor(random() * 10_000_000);
    return {
      direction: random() < 0.5 ? 'up' : 'down',
      amount: 1_000 + Math.floor(random() * 5_000_000),
      rateBp: 5_000 + Math.floor(random() * 4_500),
      entryPrice,
      price: Math.max(1, Math.round(entryPrice * (1 + (random() - 0.5) * 0.01))),
      msLeft: 1 + Math.floor(random() * 300_000),
      annualVol: 0.05 + random(),
      spreadBp: 500,
    };
  });
}

/** The same value with the engine's Math.log and a logistic approximation of N (not published). */
function engineValue(i: SellInputs): number {
  const payout = winPayout(i.amount, i.rateBp);
  const tau = i.msLeft / MS_PER_YEAR;
  const s = i.annualVol * Math.sqrt(tau);
  const d = (Math.log(i.price / i.entryPrice) - (i.annualVol * i.annualVol * tau) / 2) / s;
  const p = 1 / (1 + Math.exp(-1.702 * (i.direction === 'up' ? d : -d)));
  return Math.min(payout, Math.floor((payout * p * (10_000 - i.spreadBp)) / 10_000));
}

function time(label: string, inputs: SellInputs[], f: (i: SellInputs) => number): number {
  let sink = 0;
  for (const i of inputs.slice(0, 20_000)) sink += f(i); // warm-up
  const perCall: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (const i of inputs) sink += f(i);
    perCall.push(Number(process.hrtime.bigint() - start) / inputs.length);
  }
  perCall.sort((a, b) => a - b);
  const median = perCall[Math.floor(ROUNDS / 2)]!;
  console.log(
    `${label.padEnd(44)} ${median.toFixed(1).padStart(7)} ns per order per tick  (sink ${sink % 10})`,
  );
  return median;
}

const inputs = orders();
const [l1, l5, l15] = os.loadavg().map((l) => l.toFixed(2));
console.log(
  `sell value over ${N} generated open orders, median of ${ROUNDS} rounds; load ${l1} ${l5} ${l15} on ${os.cpus().length} cores`,
);
const published = time('published formula (stdlib ln + erfc)', inputs, sellValue);
const engine = time('baseline: Math.log + logistic N', inputs, engineValue);
const payout = time('baseline: win payout only', inputs, (i) => winPayout(i.amount, i.rateBp));
console.log(
  `ratios: published / Math.log baseline ${(published / engine).toFixed(2)}×, published / payout ${(published / payout).toFixed(1)}×`,
);
console.log(
  `at 2 ticks a second: ${((published * 2) / 1000).toFixed(2)} µs of CPU per open order per second; 1 000 open positions on a screen ≈ ${((published * 1000) / 1e6).toFixed(2)} ms per tick`,
);
