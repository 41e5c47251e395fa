/**
 * The simulator's random generators: the interface the price model draws from, the
 * distributions over uniforms (`rngFrom`), and a small seeded generator.
 *
 * The seeded generator is for what must replay from a public number: tests, benchmarks and the
 * first-start backfill of history. It is NOT for live prices: anyone who reads the code could
 * search the seed space and predict every tick. Live ticks draw from the keyed stream of
 * fairness.ts (a secret per period, committed to in advance).
 *
 * `Math.random` cannot be seeded, so the seeded generator is our own: xoshiro128** (32-bit state
 * words, fast in JS integer arithmetic, good statistical quality), seeded through splitmix32 so
 * that nearby seeds (1, 2, 3…) still give unrelated streams.
 */

/** A deterministic stream of random numbers. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (mean 0, standard deviation 1). */
  normal(): number;
  /** `true` with probability `p` (clamped to [0, 1]). */
  bernoulli(p: number): boolean;
  /** A Poisson-distributed count with mean `lambda` (≥ 0). */
  poisson(lambda: number): number;
}

const TWO_POW_32 = 4_294_967_296;

/**
 * Reduces any finite number to 32 bits without discarding its high part, so seeds such as
 * `Date.now()` (which exceed 2^32) keep all their information.
 */
function seedWord(seed: number): number {
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  const int = Math.trunc(seed);
  const lo = int >>> 0;
  const hi = Math.floor(int / TWO_POW_32) >>> 0;
  return fmix32(lo ^ Math.imul(hi, 0x9e3779b9)) >>> 0;
}

/** MurmurHash3's finaliser: a bijective avalanche of 32 bits. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Creates a generator from a seed. The same seed always gives the same sequence.
 *
 * @param seed any finite number; its integer part is used (all 53 bits of it)
 */
export function createRng(seed: number): Rng {
  // splitmix32 expands one word into the four state words; xoshiro must never be all-zero,
  // which splitmix output cannot be for four consecutive draws.
  let sm = seedWord(seed);
  const splitmix = (): number => {
    sm = (sm + 0x9e3779b9) | 0;
    let z = sm;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  };
  let s0 = splitmix();
  let s1 = splitmix();
  let s2 = splitmix();
  let s3 = splitmix();

  const nextWord = (): number => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return result;
  };

  return rngFrom(() => nextWord() / TWO_POW_32);
}

/**
 * The distributions every generator of the simulator shares, over a source of uniforms in [0, 1):
 * the seeded stream above and the keyed stream of the live feed (fairness.ts) draw normals,
 * Bernoulli trials and Poisson counts in exactly the same way, so the one price model runs on
 * either. A verifier reimplementing the live feed must follow these steps draw for draw.
 */
export function rngFrom(next: () => number): Rng {
  // Box–Muller yields normals in pairs; keeping the second halves the cost of `normal()`.
  let spare: number | null = null;
  const normal = (): number => {
    if (spare !== null) {
      const z = spare;
      spare = null;
      return z;
    }
    // 1 - next() is in (0, 1], so the logarithm is finite.
    const r = Math.sqrt(-2 * Math.log(1 - next()));
    const theta = 2 * Math.PI * next();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };

  const bernoulli = (p: number): boolean => next() < p;

  const poisson = (lambda: number): number => {
    if (!(lambda > 0)) return 0;
    if (lambda > 30) {
      // Knuth's product method needs ~lambda draws and underflows e^-lambda for large means;
      // past 30 the normal approximation is close enough for a simulator.
      return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * normal()));
    }
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = next();
    while (p > limit) {
      k += 1;
      p *= next();
    }
    return k;
  };

  return { next, normal, bernoulli, poisson };
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * Derives the seed of one product's stream from the simulator's seed, so every product gets its
 * own generator: adding, removing or reordering products never changes another product's prices.
 *
 * @param seed the simulator-wide seed
 * @param productId the product id, e.g. `BTCUSDT`
 * @returns a 32-bit unsigned seed
 */
export function deriveSeed(seed: number, productId: string): number {
  // FNV-1a over the UTF-16 code units of the id, started from the mixed seed, then avalanched.
  let h = (0x811c9dc5 ^ seedWord(seed)) >>> 0;
  for (let i = 0; i < productId.length; i += 1) {
    h ^= productId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}
