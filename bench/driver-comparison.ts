/**
 * The goals for the TypeScript driver, as ratios of the two drivers measured in the same
 * run (printed under the main table): the floor no slower than the binding's, the lock cycle and
 * the throughputs better, the event loop against the bare binding's LOOP floor, and the memory of
 * a session and a held lock on each. Absolute figures drift on a shared machine; these ratios
 * hold within one run.
 */
import { EVENT_LOOP_P999_GOAL_MS } from './event-loop.js';
import { DRIVERS, IMPL, type BenchDriver } from './params.js';
import { median } from './stats.js';

type Json = Record<string, any>; // the document as parsed from the workloads' JSON lines

/**
 * The library's result on `driver` among one workload's results. A result without `driver`
 * predates the TypeScript driver: it measured the native client (under the key `nestjs-zk-lock`).
 */
export function libraryResult(byImpl: Json | undefined, driver: BenchDriver): Json | undefined {
  for (const key of [IMPL, `${IMPL}.${driver}`]) {
    const result = byImpl?.[key];
    if (result && (result.driver ?? 'native') === driver) return result;
  }
  return undefined;
}

/** W5 on each raw client: `node-zookeeper` (native), `typescript-client` (the bare `ProtocolHandle`). */
export function floorResult(byImpl: Json | undefined, driver: BenchDriver): Json | undefined {
  return byImpl?.[driver === 'native' ? 'node-zookeeper' : 'typescript-client'];
}

const ok = (r: Json | undefined): Json | undefined => (r && !r.error ? r : undefined);
const fmt = (value: unknown, digits = 2): string => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const kb = (bytes: unknown): string => (typeof bytes === 'number' ? `${(bytes / 1024).toFixed(1)} KB` : 'n/a');

interface Ratio {
  what: string;
  ts: unknown;
  native: unknown;
  /** `better`: how many times the TypeScript driver is better (> 1 is better). */
  better?: number;
  goal: string;
  met?: boolean;
  /** Decimals shown: times in ms to the µs, rates as whole numbers. */
  digits: number;
}

/** `lowerIsBetter`: times (the ratio is native / ts), else rates (ts / native). */
function compare(what: string, ts: unknown, native: unknown, lowerIsBetter: boolean, goal?: number): Ratio {
  const both = typeof ts === 'number' && typeof native === 'number' && ts > 0 && native > 0;
  const better = both ? (lowerIsBetter ? native / ts : ts / native) : undefined;
  return {
    what, ts, native, better, digits: lowerIsBetter ? 3 : 0,
    goal: goal === undefined ? '' : `≥ ${goal.toFixed(2)}`,
    met: better === undefined || goal === undefined ? undefined : better >= goal,
  };
}

/** The goals as the "times better" figure: the floor no worse (1.0×); W1, W2 and W6 1.1×. */
const GOALS = { w5: 1.0, w1: 1.1, w2: 1.1, w6: 1.1 } as const;

/**
 * One figure of a result: `pick` of it, or, for a workload run in rounds (`rounds`, see
 * bench/run.ts), the median of `pick` over the rounds that measured it.
 */
export function figure(result: Json, pick: (r: Json) => unknown): unknown {
  if (!Array.isArray(result.rounds)) return pick(result);
  const values = result.rounds.filter((r: Json) => ok(r)).map(pick).filter((v: unknown): v is number => typeof v === 'number' && Number.isFinite(v));
  return values.length ? median(values) : undefined;
}

export function driverComparison(doc: Json): string {
  const w = doc.workloads ?? {};
  const both = (key: string, pick: (r: Json) => unknown, lookup = libraryResult): [unknown, unknown] => {
    const [ts, native] = DRIVERS.map((d) => ok(lookup(w[key], d)));
    return [ts ? figure(ts, pick) : undefined, native ? figure(native, pick) : undefined];
  };
  const ratios: Ratio[] = [
    compare('W5 raw floor cycle p50, ms', ...both('W5', (r) => r.cycle_ms?.p50, floorResult), true, GOALS.w5),
    compare('W1 cycle p50, ms', ...both('W1', (r) => r.cycle_ms?.p50), true, GOALS.w1),
    compare('W2 c8 acquisitions/s', ...both('W2', (r) => ok(r.c8)?.acquisitions_per_s), false, GOALS.w2),
    compare('W2 c32 acquisitions/s', ...both('W2', (r) => ok(r.c32)?.acquisitions_per_s), false, GOALS.w2),
    compare('W6 acquisitions/s', ...both('W6', (r) => r.acquisitions_per_s), false, GOALS.w6),
    compare('W3 requests / acquisition', ...both('W3', (r) => r.requests_per_acquisition), true),
    // The process's CPU (all threads: the C client's own too) per operation, in the measured region.
    compare('W5 process CPU / cycle, ms', ...both('W5', (r) => r.process_cpu_ms_per_cycle?.total_ms, floorResult), true),
    compare('W1 process CPU / cycle, ms', ...both('W1', (r) => r.process_cpu_ms_per_cycle?.total_ms), true),
    compare('W2 c8 process CPU / acquisition, ms', ...both('W2', (r) => ok(r.c8)?.process_cpu_ms_per_acquisition?.total_ms), true),
    compare('W2 c32 process CPU / acquisition, ms', ...both('W2', (r) => ok(r.c32)?.process_cpu_ms_per_acquisition?.total_ms), true),
    compare('W7 operations/s', ...both('W7', (r) => r.operations_per_s), false),
    compare('W8 acquisitions/s', ...both('W8', (r) => r.acquisitions_per_s), false),
  ].filter((r) => r.ts !== undefined || r.native !== undefined);

  // Event-loop p99.9 against the bare binding's figure on the same requests (LOOP), in this run.
  const floor = ok(w.LOOP?.['node-zookeeper']);
  const loop: [string, (r: Json) => Json | undefined, Json | undefined][] = [
    ['W2 c32', (r) => ok(r.c32)?.event_loop_delay, undefined],
    ['W6', (r) => r.event_loop_delay, floor?.w6_pattern],
    ['SCALE waiters queueing', (r) => r.waiters?.queue_event_loop_delay, floor?.waiters_queueing],
    ['SCALE held locks acquire', (r) => r.held_locks?.new_dirs?.acquire_event_loop_delay, floor?.held_locks_acquire],
    ['SCALE held locks release', (r) => r.held_locks?.new_dirs?.release_event_loop_delay, floor?.held_locks_release],
  ];
  const loopRows: string[][] = [];
  for (const [what, pick, bare] of loop) {
    const key = what.split(' ')[0]!;
    const [ts, native] = both(key, (r) => pick(r)?.p999_ms);
    if (ts === undefined && native === undefined) continue;
    const r = compare(what, ts, native, true);
    const reference = bare ? `; bare binding ${fmt(bare.p999_ms)} ms` : floor?.idle_beside ? `; idle process beside LOOP ${fmt(floor.idle_beside.p999_ms)} ms` : '';
    const met = typeof ts === 'number' ? (ts <= EVENT_LOOP_P999_GOAL_MS ? 'yes' : '**no**') : '';
    loopRows.push([`${what}: event-loop p99.9, ms`, fmt(ts), fmt(native), fmt(r.better), `≤ ${EVENT_LOOP_P999_GOAL_MS} ms${reference}`, met]);
  }

  const memory: [string, (r: Json) => unknown][] = [
    ['SCALE heap / idle session', (r) => r.idle_sessions?.heap_per_session_bytes],
    ['SCALE RSS / idle session (the C client lives outside the heap)', (r) => r.idle_sessions?.rss_per_session_bytes],
    ['SCALE heap / held lock', (r) => r.held_locks?.existing_dirs?.heap_per_held_lock_bytes],
    ['SCALE heap / queued waiter', (r) => r.waiters?.heap_per_waiter_bytes],
  ];
  const memoryRows = memory
    .map(([what, pick]) => [what, ...both('SCALE', pick)] as const)
    .filter(([, ts, native]) => ts !== undefined || native !== undefined)
    .map(([what, ts, native]) => [what, kb(ts), kb(native), '', '', '']);

  const header = ['Same run', 'typescript', 'native', 'ts better by (×)', 'Goal', 'Met'];
  const lines = [
    ...ratios.map((r) => [r.what, fmt(r.ts, r.digits), fmt(r.native, r.digits), fmt(r.better), r.goal, r.met === undefined ? '' : r.met ? 'yes' : '**no**']),
    ...loopRows,
    ...memoryRows,
  ];
  if (!lines.length) return '';
  const table = [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`);
  const rounds = Math.max(0, ...Object.values(w).flatMap((byImpl) => Object.values(byImpl ?? {})).map((r) => (Array.isArray((r as Json)?.rounds) ? (r as Json).rounds.length : 0)));
  const medians = rounds > 1 ? `; a workload run in rounds shows its figures' medians over ${rounds} rounds` : '';
  return `\nDrivers compared (× = native time / ts time, or ts rate / native rate: above 1 the TypeScript driver is better${medians}):\n${table.join('\n')}\n`;
}
