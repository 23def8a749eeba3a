/**
 * The table's figures and goals relative to Curator (BENCHMARKS.md, issue 32): Curator's figure of
 * the same run when the harness ran it (`workloads.<W>.curator`; for W1 and W2, run in rounds, the
 * median over its rounds), else BENCHMARKS.md's range from earlier runs; the goal text says which.
 * A goal "≥ k × Curator" against a range must beat its top, "≤ Curator" its bottom.
 */
import { figure } from './driver-comparison.js';

type Json = Record<string, any>; // the document as parsed from the workloads' JSON lines

/** Curator's figure for a goal: one value (same run) or a range (BENCHMARKS.md). */
export interface CuratorFigure {
  lo: number;
  hi: number;
  /** `same run`, `same run, median of N rounds`, or `BENCHMARKS.md`. */
  source: string;
  /** What the Curator column shows. */
  shown: string;
}

export interface Goal {
  target: string;
  met?: boolean;
  curator?: string;
}

const span = (lo: number, hi: number, digits: number) => (lo === hi ? lo.toFixed(digits) : `${lo.toFixed(digits)}–${hi.toFixed(digits)}`);

/** A figure of a result: `pick` of it, or the median of `pick` over its rounds (bench/run.ts). */
export function value(result: Json | undefined, pick: (r: Json) => unknown): number | undefined {
  if (!result || result.error) return undefined;
  const v = figure(result, pick);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** `pick` of the same run's Curator result, else `fallback` (BENCHMARKS.md's range), else undefined. */
export function curatorFigure(curator: Json | undefined, pick: (r: Json) => unknown, fallback: readonly [number, number] | undefined, digits: number, unit = ''): CuratorFigure | undefined {
  const v = value(curator, pick);
  if (v !== undefined) {
    const rounds = Array.isArray(curator!.rounds) && curator!.rounds.length > 1 ? `, median of ${curator!.rounds.length} rounds` : '';
    return { lo: v, hi: v, source: `same run${rounds}`, shown: `${v.toFixed(digits)}${unit}` };
  }
  return fallback && { lo: fallback[0], hi: fallback[1], source: 'BENCHMARKS.md', shown: `${span(fallback[0], fallback[1], digits)}${unit}` };
}

/**
 * `ours ≥ k × Curator`; without a Curator figure the goal says Curator did not run. `oursNote`
 * says what `ours` is when it is not the figure the row shows (the median over rounds).
 */
export function atLeastTimes(ours: number | undefined, k: number, curator: CuratorFigure | undefined, oursNote = ''): Goal {
  if (!curator) return { target: `≥ ${k} × Curator (not run)` };
  return {
    target: `≥ ${k} × Curator (${curator.source}) = ${span(k * curator.lo, k * curator.hi, 0)}${oursNote}`,
    met: ours === undefined ? undefined : ours >= k * curator.hi,
    curator: curator.shown,
  };
}

/** `ours ≤ Curator`, `ours` as the table shows it (`asShown`); no goal without a Curator figure. */
export function atMost(ours: number | undefined, curator: CuratorFigure | undefined, asShown: (v: number) => number = (v) => v): Goal {
  if (!curator) return { target: '' };
  return { target: `≤ Curator (${curator.source})`, met: ours === undefined ? undefined : asShown(ours) <= curator.lo, curator: curator.shown };
}
