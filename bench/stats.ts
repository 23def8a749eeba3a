/**
 * Latency summaries and rates exactly as BENCHMARKS.md defines them: milliseconds rounded to
 * 0.001, percentiles by nearest rank (sort ascending, 1-based rank `ceil(p/100 * n)`, clamped
 * to 1..n, no interpolation), `median` as the statistical median (mean of the middle two).
 */

export interface LatencySummary {
  n: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Monotonic clock in milliseconds (float), from `process.hrtime.bigint()`. */
export function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Wall-clock epoch microseconds, for events compared across processes (W4). */
export function epochMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Nearest-rank percentile of an ascending-sorted array. */
export function nearestRank(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export function summarize(valuesMs: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(valuesMs).sort();
  const list = Array.from(sorted);
  const n = list.length;
  const mean = n === 0 ? Number.NaN : list.reduce((sum, v) => sum + v, 0) / n;
  return {
    n,
    min: round3(list[0] ?? Number.NaN),
    p50: round3(nearestRank(list, 50)),
    p90: round3(nearestRank(list, 90)),
    p99: round3(nearestRank(list, 99)),
    max: round3(list[n - 1] ?? Number.NaN),
    mean: round3(mean),
  };
}

/** The statistical median: the middle value, or the mean of the middle two for an even count. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  return n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

/** `count / seconds`, rounded to 0.001. */
export function rate(count: number, seconds: number): number {
  return round3(count / seconds);
}

/** A ratio rounded to 0.001 (requests per cycle and the like). */
export function ratio(numerator: number, denominator: number): number {
  return round3(numerator / denominator);
}

/** W2's hand-offs by lock order, `acq[k+1] - rel[k]`: release's return to the next acquire's return (may be negative, see BENCHMARKS.md). */
export function handoffs(acq: ArrayLike<number>, rel: ArrayLike<number>): number[] {
  const result: number[] = [];
  for (let k = 0; k < acq.length - 1; k++) result.push(acq[k + 1]! - rel[k]!);
  return result;
}

/** The CPU this process spent per operation since `start` (`process.cpuUsage()`), every thread counted: the C client's own too. */
export interface CpuPerOp {
  readonly user_ms: number;
  readonly system_ms: number;
  readonly total_ms: number;
}

export function cpuPerOp(start: NodeJS.CpuUsage, operations: number): CpuPerOp {
  const { user, system } = process.cpuUsage(start);
  const per = (micros: number) => round3(micros / 1000 / operations);
  return { user_ms: per(user), system_ms: per(system), total_ms: per(user + system) };
}
