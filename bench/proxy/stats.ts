/** Small statistics for the proxy bench: quantiles, paired differences over rounds, a bootstrap interval. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (at - lo);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

/** A seeded generator (mulberry32), so two runs resample alike. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The ratio of two added costs, `num` over `den`, each a per-round paired difference (arm minus no proxy): the
 * ratio of their medians, and a 95% percentile-bootstrap interval resampling whole rounds.
 */
export function ratioOfAdded(
  num: readonly number[],
  den: readonly number[],
  resamples = 4000,
): { ratio: number; low: number; high: number } {
  const ratio = median(num) / median(den);
  const next = random(19);
  const ratios: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < num.length; i++) {
      const k = Math.floor(next() * num.length);
      a.push(num[k]!);
      b.push(den[k]!);
    }
    ratios.push(median(a) / median(b));
  }
  return { ratio, low: quantile(ratios, 0.025), high: quantile(ratios, 0.975) };
}

export function shuffle<T>(items: readonly T[], next: () => number = Math.random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
