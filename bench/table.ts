/**
 * The short table printed after a run (markdown, so it can go into the README as is), with
 * each figure next to its goal from BENCHMARKS.md and whether this run met it.
 */
import { IMPL } from './params.js';

type Json = Record<string, any>; // the document as parsed from the workloads' JSON lines

/** Curator's W2 C=8 rate as measured for BENCHMARKS.md (705–806 acq/s); the goal is 1.2× that. */
const CURATOR_W2_C8 = [705, 806] as const;

interface Row {
  workload: string;
  metric: string;
  value: string;
  target: string;
  met?: boolean;
}

const fmt = (value: unknown, digits = 3): string => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function resultTable(doc: Json): string {
  const w = doc.workloads ?? {};
  const rows: Row[] = [];
  const failed = (name: string, result: Json | undefined) => {
    if (result && !result.error) return false;
    if (!result) return true; // not selected with --only
    rows.push({ workload: name, metric: 'error', value: String(result.error), target: '' });
    return true;
  };

  const w1 = w.W1?.[IMPL];
  const w5 = w.W5?.['node-zookeeper'];
  if (!failed('W1', w1)) {
    const floor = w5?.error ? undefined : w5?.cycle_ms?.p50;
    const r = floor ? w1.cycle_ms.p50 / floor : undefined;
    rows.push({ workload: 'W1', metric: 'cycle p50', value: `${fmt(w1.cycle_ms.p50)} ms`, target: floor ? `≤ 0.9 × W5 = ${fmt(0.9 * floor)} ms` : '≤ 0.9 × W5 (not run)' });
    rows.push({ workload: 'W1', metric: 'cycle p50 / W5 cycle p50', value: fmt(r), target: '≤ 0.90', met: r === undefined ? undefined : r <= 0.9 });
    rows.push({ workload: 'W1', metric: 'requests / cycle', value: fmt(w1.requests_per_cycle, 2), target: '3.00', met: w1.requests_per_cycle <= 3 });
  }

  const w2 = w.W2?.[IMPL];
  if (!failed('W2', w2)) {
    for (const key of Object.keys(w2)) {
      const c = w2[key];
      if (failed(`W2 ${key}`, c)) continue;
      const isC8 = c.clients === 8;
      const lo = 1.2 * CURATOR_W2_C8[0];
      const hi = 1.2 * CURATOR_W2_C8[1];
      rows.push({
        workload: `W2 ${key}`, metric: 'acquisitions/s', value: fmt(c.acquisitions_per_s, 0),
        target: isC8 ? `≥ 1.2 × Curator 705–806 = ${lo.toFixed(0)}–${hi.toFixed(0)}` : '',
        met: isC8 ? c.acquisitions_per_s >= hi : undefined,
      });
      rows.push({
        workload: `W2 ${key}`, metric: 'hand-off p50', value: `${fmt(c.handoff_ms.p50)} ms`,
        target: isC8 ? '≤ 0.45 ms (Curator 0.45–0.47)' : '', met: isC8 ? c.handoff_ms.p50 <= 0.45 : undefined,
      });
      rows.push({ workload: `W2 ${key}`, metric: 'requests / acquisition', value: fmt(c.requests_per_acquisition, 2), target: '≤ 5.00', met: c.requests_per_acquisition <= 5 });
    }
  }

  const w3 = w.W3?.[IMPL];
  if (!failed('W3', w3)) {
    const mean = w3.watch_notifications_per_release;
    const max = w3.watch_notifications_per_release_max;
    rows.push({ workload: 'W3', metric: 'notifications / release (mean, max)', value: `${fmt(mean, 2)}, ${max}`, target: 'exactly 1, max 1', met: mean === 1 && max === 1 });
    rows.push({ workload: 'W3', metric: 'final release notifications', value: String(w3.final_release_notifications), target: '0', met: w3.final_release_notifications === 0 });
    rows.push({ workload: 'W3', metric: 'requests / acquisition', value: fmt(w3.requests_per_acquisition, 2), target: '≤ 5.00', met: w3.requests_per_acquisition <= 5 });
  }

  const w4 = w.W4?.[IMPL];
  if (!failed('W4', w4)) {
    const timeout = w4.session_timeout_ms;
    if (!failed('W4 graceful', w4.graceful)) {
      rows.push({ workload: 'W4', metric: 'graceful hand-over median', value: `${fmt(w4.graceful.median_ms)} ms`, target: '≤ 2 ms', met: w4.graceful.median_ms <= 2 });
    }
    const bare = [
      ['node-zookeeper', 'bare client, same election (floor)'],
      ['node-zookeeper-relisting', "bare client, kazoo's and Curator's election"],
    ] as const;
    for (const [impl, label] of bare) {
      const floor = w.W4?.[impl];
      if (floor && !failed(`W4 ${impl}`, floor) && !failed(`W4 ${impl} graceful`, floor.graceful)) {
        rows.push({ workload: 'W4', metric: `graceful hand-over median, ${label}`, value: `${fmt(floor.graceful.median_ms)} ms`, target: '' });
      }
    }
    if (!failed('W4 crash', w4.crash)) {
      rows.push({ workload: 'W4', metric: `crash hand-over median (${timeout} ms session)`, value: `${fmt(w4.crash.median_ms, 1)} ms`, target: `≤ ${timeout} ms`, met: w4.crash.median_ms <= timeout });
    }
  }

  if (!failed('W5', w5)) {
    rows.push({ workload: 'W5', metric: 'cycle p50 (raw floor)', value: `${fmt(w5.cycle_ms.p50)} ms`, target: '' });
    rows.push({ workload: 'W5', metric: 'per-op RTT p50', value: `${fmt(w5.rtt_ms.all.p50)} ms`, target: '' });
  }

  const scale = w.SCALE?.[IMPL];
  if (!failed('SCALE', scale)) {
    const q = scale.waiters;
    rows.push({ workload: 'SCALE', metric: `${q.waiters} waiters: requests / acquisition`, value: fmt(q.requests_per_acquisition, 2), target: '≤ 5.00', met: q.requests_per_acquisition <= 5 });
    rows.push({ workload: 'SCALE', metric: `${q.waiters} waiters: heap / waiter`, value: `${q.heap_per_waiter_bytes} B`, target: '' });
    const h = scale.held_locks;
    rows.push({ workload: 'SCALE', metric: `${h.locks} held locks: heap / held lock`, value: `${h.existing_dirs.heap_per_held_lock_bytes} B`, target: '' });
    rows.push({
      workload: 'SCALE', metric: `${h.locks} held locks: requests / acquire (new dir, existing dir)`,
      value: `${fmt(h.new_dirs.requests_per_acquire, 2)}, ${fmt(h.existing_dirs.requests_per_acquire, 2)}`, target: '',
    });
  }

  const header = ['Workload', 'Metric', IMPL, 'Goal', 'Met'];
  const lines = rows.map((r) => [r.workload, r.metric, r.value, r.target, r.met === undefined ? '' : r.met ? 'yes' : '**no**']);
  const table = [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`);
  return `${doc.quick ? '(quick run: smaller counts, not comparable)\n' : ''}${table.join('\n')}\n`;
}
