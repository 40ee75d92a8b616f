// The statistics of ../shared/benchmarking.md: per-round medians, across rounds a geometric mean (ratios) or an
// arithmetic mean (differences) with a Student t-interval, and the met / not met / inconclusive rule.

export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);
export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function logGamma(x: number): number {
  const c = [
    // biome-ignore lint/correctness/noPrecisionLoss: the published Lanczos coefficients, as printed.
    76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2,
    -0.5395239384953e-5,
  ];
  let y = x;
  const tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let ser = 1.000000000190015;
  for (const cj of c) ser += cj / ++y;
  // biome-ignore lint/correctness/noPrecisionLoss: sqrt(2π) as the published approximation prints it.
  return -tmp + Math.log((2.5066282746310005 * ser) / x);
}

/** Continued fraction of the regularized incomplete beta function (Numerical Recipes' betacf). */
function betacf(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-12) break;
  }
  return h;
}

function incompleteBeta(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betacf(a, b, x)) / a : 1 - (front * betacf(b, a, 1 - x)) / b;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom. */
function tCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / 2, 0.5, df / (df + t * t));
  return t >= 0 ? 1 - tail : tail;
}

/** The two-sided critical value t_{1-α/2, df}. */
export function tCritical(df: number, confidence = 0.95): number {
  const p = 1 - (1 - confidence) / 2;
  let lo = 0;
  let hi = 1000;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface Interval {
  estimate: number;
  lo: number;
  hi: number;
  n: number;
}

/** Mean with a 95% t-interval. */
export function meanInterval(xs: readonly number[]): Interval {
  const n = xs.length;
  const m = mean(xs);
  if (n < 2) return { estimate: m, lo: Number.NaN, hi: Number.NaN, n };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1));
  const half = (tCritical(n - 1) * sd) / Math.sqrt(n);
  return { estimate: m, lo: m - half, hi: m + half, n };
}

/** Geometric mean of ratios with a 95% t-interval (on the logs). */
export function ratioInterval(ratios: readonly number[]): Interval {
  const i = meanInterval(ratios.map(Math.log));
  return { estimate: Math.exp(i.estimate), lo: Math.exp(i.lo), hi: Math.exp(i.hi), n: i.n };
}

export type Verdict = "met" | "not met" | "inconclusive";

/** benchmarking.md: met when the interval's upper bound is under the target, not met when its lower bound is over it. */
export function verdict(i: Interval, target: number): Verdict {
  if (i.hi < target) return "met";
  if (i.lo > target) return "not met";
  return "inconclusive";
}

/**
 * The ratio of two means over the same rounds, mean(xs) / mean(ys), with Fieller's 95% interval: every θ for which a
 * t-test of the per-round xs − θ·ys does not reject zero. It needs no ratio per round (one round whose ys is near
 * zero would swamp a mean of ratios), and it agrees with the paired test: θ = 1 lies outside it exactly when the
 * interval of xs − ys excludes zero. `bounded` is false when mean(ys) cannot be told from zero: then the set is not
 * an interval (lo and hi are NaN).
 */
export function fiellerInterval(xs: readonly number[], ys: readonly number[]): Interval & { bounded: boolean } {
  const n = xs.length;
  const mx = mean(xs);
  const my = mean(ys);
  const estimate = mx / my;
  if (n < 2) return { estimate, lo: Number.NaN, hi: Number.NaN, n, bounded: false };
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  // Variances of the means.
  const q = tCritical(n - 1) ** 2 / (n * (n - 1));
  // (mx − θ my)² ≤ q (sxx − 2θ sxy + θ² syy)  ⇔  a θ² + b θ + c ≤ 0
  const a = my * my - q * syy;
  const b = -2 * (mx * my - q * sxy);
  const c = mx * mx - q * sxx;
  const disc = b * b - 4 * a * c;
  if (a <= 0 || disc < 0) return { estimate, lo: Number.NaN, hi: Number.NaN, n, bounded: false };
  const root = Math.sqrt(disc);
  return { estimate, lo: (-b - root) / (2 * a), hi: (-b + root) / (2 * a), n, bounded: true };
}
