/**
 * The noise models of scripts/simulate_verdict.ts: a seeded PRNG, the
 * anchor's additive model with its noise shapes, the timing shapes a shared
 * machine adds (stalls, a drift over the climb, a per-job node factor) and
 * the pairings of a timing benchmark (separate jobs, one job, a duet). Each
 * model draws one pair at a time from the climb's stream, so a rule compared
 * with another sees the same noise (common random numbers).
 */

function splitmix32(a: number): () => number {
  return () => {
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t ^= t >>> 15;
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
}

/** sfc32: a small, fast, well-tested 32-bit generator; uniform in (0, 1). */
export function rngFrom(seed: number): () => number {
  const sm = splitmix32(seed);
  let a = sm(), b = sm(), c = sm(), d = sm();
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return ((t >>> 0) + 0.5) / 4294967296;
  };
}

export function normal(u: () => number): number {
  return Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

/** A stable 32-bit hash of a label, to give each cell its own stream. */
export function hash(s: string): number {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619);
  return h >>> 0;
}

export type Noise = "normal" | "t3" | "laplace";
/** Per-run noise with sd 2 in each shape. */
export const NOISE: Record<Noise, (u: () => number) => number> = {
  normal: (u) => 2 * normal(u),
  // t with 3 df has variance 3: scale by 2/√3 for sd 2 (heavy tails, finite variance)
  t3: (u) => {
    const z = normal(u);
    const chi2 = normal(u) ** 2 + normal(u) ** 2 + normal(u) ** 2;
    return (2 / Math.sqrt(3)) * z / Math.sqrt(chi2 / 3);
  },
  // Laplace with scale b has variance 2b²: b = √2 for sd 2
  laplace: (u) => {
    const v = u() - 0.5;
    return -Math.SQRT2 * Math.sign(v) * Math.log(1 - 2 * Math.abs(v));
  },
};

/** One pair's two values (baseline, candidate), pair `i` (0-based) of a climb. */
export type Pair = readonly [number, number];

/** A model of a climb's measured values: `pairs` draws pair after pair from one climb's stream. */
export interface Model {
  readonly label: string;
  readonly direction: "maximize" | "minimize";
  /** Everything ×scale (min_effect too). */
  readonly scale: number;
  /** The climb's pair source under a true effect, from its stream `u`. */
  climb(u: () => number, effect: number): (i: number) => Pair;
}

/**
 * The anchor's model: 100 + the effect (candidate only) + a seed term shared
 * by the pair (σ 20) + per-run noise of sd 2 in `noise`'s shape; for
 * `minimize` the mirror image (values going down where the anchor's go up).
 */
export function additive(label: string, direction: Model["direction"], scale: number, noise: Noise): Model {
  const sign = direction === "maximize" ? 1 : -1;
  return {
    label,
    direction,
    scale,
    climb: (u, effect) => () => {
      const shared = 100 + 20 * normal(u);
      const b = scale * (shared + sign * NOISE[noise](u));
      const c = scale * (shared + sign * (effect + NOISE[noise](u)));
      return [b, c];
    },
  };
}

/** What a shared machine adds to a timing run. */
export interface Disturbance {
  /** The chance that a run stalls (its time ×`stallFactor`): one-sided, each run on its own. */
  readonly stall?: number;
  readonly stallFactor?: number;
  /** The sd of a climb's drift per job (a time ×(1 + β·k) for the k-th job of the climb, β ~ N(0, sd²)). */
  readonly drift?: number;
  /** The sd of a per-job node factor (each job's time ×exp(σ·Z)). */
  readonly node?: number;
}

/**
 * A timing benchmark (minimize, ms) measured as the tool does today, each
 * measure its own job, baseline before candidate: the anchor's values (100 +
 * 20·Z shared by the pair, per-run noise sd 2, the candidate `effect` ms
 * faster), each run's time then multiplied by what the machine does to it.
 * The effect is the stall-free improvement: under stalls the mean
 * improvement is larger (a stall multiplies the candidate's shorter time too).
 */
export function timing(label: string, d: Disturbance): Model {
  const factor = d.stallFactor ?? 3;
  return {
    label,
    direction: "minimize",
    scale: 1,
    climb: (u, effect) => {
      const beta = (d.drift ?? 0) * normal(u);
      return (i) => {
        const shared = 100 + 20 * normal(u);
        const runs = [shared + NOISE.normal(u), shared - effect + NOISE.normal(u)];
        return runs.map((t, arm) => {
          if (d.stall !== undefined && u() < d.stall) t *= factor;
          if (d.node !== undefined) t *= Math.exp(d.node * normal(u));
          if (d.drift !== undefined) t *= 1 + beta * (2 * i + arm);
          return t;
        }) as unknown as Pair;
      };
    },
  };
}

/** How a pair's two measures share machines (issue 15's `pairing`). */
export type Pairing = "separate" | "same-job" | "duet";

/** The machine of the pairing study. */
export interface Machine {
  /** Base time, ms. */
  readonly time: number;
  /** sd of the per-job node factor exp(σ·Z). */
  readonly node: number;
  /** sd of a run's own noise, relative (1 + σ·Z). */
  readonly within: number;
  /** In one job, the second run is slower by this share (a warm-up or a heat-up: within-job drift). */
  readonly secondRun: number;
  /** In a duet, each run's extra relative noise from sharing the node with the other. */
  readonly interference: number;
  /** The chance a run stalls ×3. */
  readonly stall: number;
}

/**
 * A timing benchmark under `pairing`: `separate`, each measure its own job
 * (its own node factor, no other run in the job); `same-job`, both measures
 * of a pair in one job one after the other (one node factor; the second run
 * carries the within-job drift, and the order alternates by pair: baseline
 * first in odd pairs, candidate first in even ones, so the drift cancels over
 * pairs); `duet`, both at once on one node (one factor, no order, each run an
 * extra interference noise). The effect is the candidate's stall-free saving in ms.
 */
export function paired(label: string, pairing: Pairing, m: Machine): Model {
  return {
    label,
    direction: "minimize",
    scale: 1,
    climb: (u, effect) => (i) => {
      const shared = Math.exp(m.node * normal(u));
      const second = i % 2 === 0 ? 1 : 0; // pair 1 (i = 0): baseline first
      const runs = [m.time, m.time - effect].map((t, arm) => {
        const node = pairing === "separate" ? Math.exp(m.node * normal(u)) : shared;
        let v = t * node * (1 + m.within * normal(u));
        if (pairing === "duet") v *= 1 + m.interference * normal(u);
        if (pairing === "same-job" && arm === second) v *= 1 + m.secondRun;
        if (u() < m.stall) v *= 3;
        return v;
      });
      return [runs[0]!, runs[1]!];
    },
  };
}
