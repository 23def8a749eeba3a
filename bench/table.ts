/**
 * The short table printed after a run (markdown, so it can go into the README as is), with
 * each figure next to its goal (BENCHMARKS.md's, or issue 32's where it asks more) and whether
 * this run met it, and next to Curator's figure: this run's where the harness ran Curator (W1, W2,
 * W7, W8), else BENCHMARKS.md's (curator-goals.ts), and kazoo's from BENCHMARKS.md. The
 * library's rows come once per driver (column Driver); the two drivers' ratios follow
 * (`driver-comparison.ts`).
 */
import { EVENT_LOOP_P999_GOAL_MS } from './event-loop.js';
import { atLeastTimes, atMost, curatorFigure, value } from './curator-goals.js';
import { driverComparison, floorResult, libraryResult } from './driver-comparison.js';
import { DRIVERS, IMPL } from './params.js';

type Json = Record<string, any>; // the document as parsed from the workloads' JSON lines

/**
 * Curator's figures from BENCHMARKS.md, for a run where the harness could not run Curator itself
 * (curator-goals.ts): W1's cycle, W2 C=8's rate and hand-off (C=32 has none there).
 */
const CURATOR_W1_P50 = [0.68, 0.71] as const;
const CURATOR_W2: Record<string, { rate: readonly [number, number]; handoff: readonly [number, number] }> = { c8: { rate: [705, 806], handoff: [0.45, 0.47] } };
/** Issue 32's goals: W2 (both client counts) 2× Curator's rate, W7 1.5× its operations; W8 1.2× as BENCHMARKS.md. */
const W2_TIMES_CURATOR = 2;
const W7_TIMES_CURATOR = 1.5;
const W8_TIMES_CURATOR = 1.2;
/** Curator's W6 acquisitions/s and cost from BENCHMARKS.md; the goals are 1.3× the rate and ≤ the requests. */
const CURATOR_W6_ACQ = [1568, 1773] as const;
const CURATOR_W6_REQUESTS = 4.25;
/**
 * W6's floor: 3 requests an acquisition (node create, listing, delete) and a directory create at
 * each name's first use, one in four here: 3.25 requests, 2.25 writes, one round trip to acquire.
 */
const W6_FLOOR = { requests: 3.25, writes: 2.25 } as const;
/** Curator's W7 operations/s and W8 acquisitions/s from BENCHMARKS.md. */
const CURATOR_W7_OPS = [1169, 1264] as const;
const CURATOR_W8_ACQ = [534, 596] as const;
/** Curator's W7 requests and notifications per operation, W8's per acquisition (BENCHMARKS.md): the goal is ≤ these (the lower end). */
const CURATOR_W7_COST = { requests: [4.39, 4.47], notifications: [0.52, 0.59] } as const;
const CURATOR_W8_COST = { requests: [9.03, 9.04], notifications: [2.0, 2.0] } as const;

interface Row {
  workload: string;
  metric: string;
  value: string;
  target: string;
  met?: boolean;
  /** The peers' figures: Curator's of the same run where it ran, else BENCHMARKS.md's, where it has them. */
  curator?: string;
  kazoo?: string;
  /** The client the figure was measured on (`--driver`); the bare-client rows say `native (bare)`. */
  driver?: string;
}

const fmt = (value: unknown, digits = 3): string => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
/** A count per operation as the table shows it (two decimals, the precision of the peers' figures it is compared with). */
const asShown = (value: number): number => Number(value.toFixed(2));
/** For a result run in rounds, whose row shows the first round: the median the goal compares. */
const medianNote = (result: Json, pick: (r: Json) => unknown): string =>
  Array.isArray(result.rounds) && result.rounds.length > 1 ? `; ours: median ${fmt(value(result, pick), 0)}` : '';

export function resultTable(doc: Json): string {
  const w = doc.workloads ?? {};
  const rows: Row[] = [];
  const failed = (name: string, result: Json | undefined) => {
    if (result && !result.error) return false;
    if (!result) return true; // not selected with --only
    rows.push({ workload: name, metric: 'error', value: String(result.error), target: '' });
    return true;
  };

  // Rows added in one pass belong to that pass's driver; W4 and LOOP say theirs.
  for (const driver of DRIVERS) {
    // Untyped, as the whole document is: `failed` checks each result before it is read.
    const lib = (byImpl: Json | undefined): any => libraryResult(byImpl, driver);
    const rawFloor = (byImpl: Json | undefined): any => floorResult(byImpl, driver);
    const w1 = lib(w.W1);
    const w5 = rawFloor(w.W5);
    if (!failed('W1', w1)) {
      const floor = w5?.error ? undefined : w5?.cycle_ms?.p50;
      const r = floor ? w1.cycle_ms.p50 / floor : undefined;
      const curatorP50 = curatorFigure(w.W1?.curator, (r) => r.cycle_ms?.p50, CURATOR_W1_P50, 3, ' ms');
      rows.push({ workload: 'W1', metric: 'cycle p50', value: `${fmt(w1.cycle_ms.p50)} ms`, curator: curatorP50?.shown, target: floor ? `≤ 0.9 × W5 = ${fmt(0.9 * floor)} ms` : '≤ 0.9 × W5 (not run)' });
      rows.push({ workload: 'W1', metric: 'cycle p50 / W5 (same client) cycle p50', value: fmt(r), target: '≤ 0.90', met: r === undefined ? undefined : r <= 0.9 });
      const curatorRequests = curatorFigure(w.W1?.curator, (r) => r.requests_per_cycle, [3, 3], 2);
      rows.push({ workload: 'W1', metric: 'requests / cycle', value: fmt(w1.requests_per_cycle, 2), curator: curatorRequests?.shown, target: '3.00', met: w1.requests_per_cycle <= 3 });
    }

    // W1 with auth: the default driver creates with the ACL (3 requests, as without auth); the
    // binding cannot, so its creates are followed by a setAcl (4, the figure before ACL at create).
    const w1a = lib(w.W1A);
    if (!failed('W1A', w1a)) {
      const goal = driver === 'typescript' ? 3 : 4;
      const curatorRequests = curatorFigure(w.W1A?.curator, (r) => r.requests_per_cycle, undefined, 2);
      const curatorP50 = curatorFigure(w.W1A?.curator, (r) => r.cycle_ms?.p50, undefined, 3, ' ms');
      rows.push({ workload: 'W1A', metric: 'requests / cycle, with auth and a creator-only ACL', value: fmt(w1a.requests_per_cycle, 2), curator: curatorRequests?.shown, target: goal.toFixed(2), met: w1a.requests_per_cycle <= goal });
      rows.push({ workload: 'W1A', metric: 'cycle p50', value: `${fmt(w1a.cycle_ms.p50)} ms`, curator: curatorP50?.shown, target: '' });
    }

    const w2 = lib(w.W2);
    if (!failed('W2', w2)) {
      for (const key of Object.keys(w2).filter((k) => /^c\d+$/.test(k))) {
        const c = w2[key];
        if (failed(`W2 ${key}`, c)) continue;
        // Against Curator the library's figure is its median over the rounds too (the row shows the first round).
        const pick = (field: (r: Json) => unknown) => (r: Json) => (r[key] && !r[key].error ? field(r[key]) : undefined);
        const rate = pick((r) => r.acquisitions_per_s);
        const handoff = pick((r) => r.handoff_ms?.p50);
        const curator = w.W2?.curator;
        rows.push({
          workload: `W2 ${key}`, metric: 'acquisitions/s', value: fmt(c.acquisitions_per_s, 0),
          ...atLeastTimes(value(w2, rate), W2_TIMES_CURATOR, curatorFigure(curator, rate, CURATOR_W2[key]?.rate, 0), medianNote(w2, rate)),
        });
        rows.push({
          workload: `W2 ${key}`, metric: 'hand-off p50', value: `${fmt(c.handoff_ms.p50)} ms`,
          ...atMost(value(w2, handoff), curatorFigure(curator, handoff, CURATOR_W2[key]?.handoff, 3, ' ms')),
        });
        const curatorRequests = curatorFigure(curator, pick((r) => r.requests_per_acquisition), undefined, 2);
        rows.push({ workload: `W2 ${key}`, metric: 'requests / acquisition', value: fmt(c.requests_per_acquisition, 2), curator: curatorRequests?.shown, target: '≤ 5.00', met: c.requests_per_acquisition <= 5 });
      }
    }

    const w3 = lib(w.W3);
    if (!failed('W3', w3)) {
      const mean = w3.watch_notifications_per_release;
      const max = w3.watch_notifications_per_release_max;
      rows.push({ workload: 'W3', metric: 'notifications / release (mean, max)', value: `${fmt(mean, 2)}, ${max}`, target: 'exactly 1, max 1', met: mean === 1 && max === 1 });
      rows.push({ workload: 'W3', metric: 'final release notifications', value: String(w3.final_release_notifications), target: '0', met: w3.final_release_notifications === 0 });
      rows.push({ workload: 'W3', metric: 'requests / acquisition', value: fmt(w3.requests_per_acquisition, 2), target: '≤ 5.00', met: w3.requests_per_acquisition <= 5 });
    }

    if (!failed('W5', w5)) {
      rows.push({ workload: 'W5', metric: 'cycle p50 (raw floor)', value: `${fmt(w5.cycle_ms.p50)} ms`, target: '' });
      rows.push({ workload: 'W5', metric: 'per-op RTT p50', value: `${fmt(w5.rtt_ms.all.p50)} ms`, target: '' });
    }

    const w6 = lib(w.W6);
    if (!failed('W6', w6)) {
      const [lo, hi] = CURATOR_W6_ACQ.map((v) => 1.3 * v) as [number, number];
      rows.push({
        workload: 'W6', metric: 'acquisitions/s', value: fmt(w6.acquisitions_per_s, 0), curator: '1568–1773', kazoo: '691–693',
        target: `≥ 1.3 × Curator = ${lo.toFixed(0)}–${hi.toFixed(0)}`, met: w6.acquisitions_per_s >= hi,
      });
      rows.push({ workload: 'W6', metric: 'acquire p50', value: `${fmt(w6.acquire_ms.p50)} ms`, curator: '1.60–2.05 ms', kazoo: '8.10–8.34 ms', target: '' });
      rows.push({
        workload: 'W6', metric: 'requests / acquisition', value: fmt(w6.requests_per_acquisition, 2), curator: '4.25', kazoo: '4.50',
        target: `≤ Curator (${CURATOR_W6_REQUESTS.toFixed(2)}); floor ${W6_FLOOR.requests.toFixed(2)}`, met: asShown(w6.requests_per_acquisition) <= CURATOR_W6_REQUESTS,
      });
      rows.push({ workload: 'W6', metric: 'writes / acquisition', value: fmt(w6.writes_per_acquisition, 2), curator: '2.50', kazoo: '2.25', target: `floor ${W6_FLOOR.writes.toFixed(2)}` });
      if (w6.lock_dirs_after_sweep !== null) {
        rows.push({
          workload: 'W6', metric: 'lock directories left after the container sweep', value: `${w6.lock_dirs_after_sweep} (of ${w6.lock_dirs_after} right after the run)`,
          target: '0', met: w6.lock_dirs_after_sweep === 0,
        });
      }
    }

    const w7 = lib(w.W7);
    if (!failed('W7', w7)) {
      const curator = w.W7?.curator;
      const ran = curator && !curator.error ? curator : undefined;
      rows.push({
        workload: 'W7', metric: 'operations/s', value: fmt(w7.operations_per_s, 0), kazoo: '654–714 (2.9.0; 2.8.0 deadlocks)',
        ...atLeastTimes(w7.operations_per_s, W7_TIMES_CURATOR, curatorFigure(curator, (r) => r.operations_per_s, CURATOR_W7_OPS, 0)),
      });
      rows.push({
        workload: 'W7', metric: 'read / write acquire p50', value: `${fmt(w7.read_acquire_ms.p50)} / ${fmt(w7.write_acquire_ms.p50)} ms`,
        curator: ran ? `${fmt(ran.read_acquire_ms?.p50)} / ${fmt(ran.write_acquire_ms?.p50)} ms` : '3.51–4.16 / 3.83–4.60 ms', kazoo: '8.63–9.18 / 9.97–10.18 ms', target: '',
      });
      rows.push({
        workload: 'W7', metric: 'requests / operation', value: fmt(w7.requests_per_operation, 2), kazoo: '5.09–5.11',
        ...atMost(w7.requests_per_operation, curatorFigure(curator, (r) => r.requests_per_operation, CURATOR_W7_COST.requests, 2), asShown),
      });
      rows.push({
        workload: 'W7', metric: 'notifications / operation', value: fmt(w7.watch_notifications_per_operation, 2), kazoo: '0.36–0.37',
        ...atMost(w7.watch_notifications_per_operation, curatorFigure(curator, (r) => r.watch_notifications_per_operation, CURATOR_W7_COST.notifications, 2), asShown),
      });
      rows.push({ workload: 'W7', metric: 'max concurrent readers', value: String(w7.max_concurrent_readers), curator: ran ? String(ran.max_concurrent_readers) : undefined, target: '' });
      rows.push({
        workload: 'W7', metric: 'exclusion violations', value: String(w7.exclusion_violations),
        curator: ran ? String(ran.exclusion_violations) : '0', kazoo: '0', target: '0', met: w7.exclusion_violations === 0,
      });
    }

    const w8 = lib(w.W8);
    if (!failed('W8', w8)) {
      const curator = w.W8?.curator;
      const ran = curator && !curator.error ? curator : undefined;
      rows.push({
        workload: 'W8', metric: 'acquisitions/s', value: fmt(w8.acquisitions_per_s, 0), kazoo: '381–518',
        ...atLeastTimes(w8.acquisitions_per_s, W8_TIMES_CURATOR, curatorFigure(curator, (r) => r.acquisitions_per_s, CURATOR_W8_ACQ, 0)),
      });
      rows.push({ workload: 'W8', metric: 'acquire p50', value: `${fmt(w8.acquire_ms.p50)} ms`, curator: ran ? `${fmt(ran.acquire_ms?.p50)} ms` : '20.9–25.3 ms', kazoo: '27.7–38.1 ms', target: '' });
      // Issue 32's goal is absolute (Curator needs 9.03): a queued permit costs what a queued lock does.
      rows.push({
        workload: 'W8', metric: 'requests / acquisition', value: fmt(w8.requests_per_acquisition, 2), kazoo: '11.02–11.03',
        curator: curatorFigure(curator, (r) => r.requests_per_acquisition, CURATOR_W8_COST.requests, 2)?.shown,
        target: '≤ 5.00', met: asShown(w8.requests_per_acquisition) <= 5,
      });
      rows.push({
        workload: 'W8', metric: 'notifications / acquisition', value: fmt(w8.watch_notifications_per_acquisition, 2), kazoo: '2.00',
        ...atMost(w8.watch_notifications_per_acquisition, curatorFigure(curator, (r) => r.watch_notifications_per_acquisition, CURATOR_W8_COST.notifications, 2), asShown),
      });
      rows.push({
        workload: 'W8', metric: `max concurrent holders (of ${w8.max_leases})`, value: String(w8.max_concurrent_holders),
        curator: ran ? String(ran.max_concurrent_holders) : '3', kazoo: '2', target: String(w8.max_leases), met: w8.max_concurrent_holders === w8.max_leases,
      });
      rows.push({
        workload: 'W8', metric: `holders over ${w8.max_leases} (violations)`, value: String(w8.exclusion_violations),
        target: '0', met: w8.exclusion_violations === 0,
      });
    }

    // Issue 33's goals: a join moves exactly the minimum; a graceful leave is re-owned within 50 ms
    // (nothing runs, so nothing drains); a crash within 100 ms of the server's expiry of its session.
    const w9 = lib(w.W9);
    if (!failed('W9', w9)) {
      const p = w9.partitions;
      rows.push({ workload: 'W9', metric: `${p} partitions, 3 → 4 replicas: partitions moved`, value: String(w9.join_moved), target: `exactly ${w9.join_minimum_moves}`, met: w9.join_moved === w9.join_minimum_moves });
      rows.push({ workload: 'W9', metric: '3 → 4: join to balanced', value: `${fmt(w9.join_to_balanced_ms)} ms (${fmt(w9.join_requests, 0)} requests)`, target: '' });
      rows.push({ workload: 'W9', metric: '4 → 3, graceful leave: until all owned', value: `${fmt(w9.leave_to_owned_ms)} ms`, target: '< 50 ms', met: w9.leave_to_owned_ms < 50 });
      rows.push({
        workload: 'W9', metric: `3 → 2, SIGKILL: server's expiry to all owned (kill to all owned)`,
        value: `${fmt(w9.crash_expiry_to_owned_ms)} ms (${fmt(w9.crash_kill_to_owned_ms, 0)} ms, timeout ${w9.session_timeout_ms} ms)`, target: '< 100 ms', met: w9.crash_expiry_to_owned_ms < 100,
      });
    }

    const scale = lib(w.SCALE);
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

    // Each with the bare client's figure on the same requests (LOOP), where it has one: the floor.
    const floor = w.LOOP?.['node-zookeeper'];
    const loopRows: [string, Json | undefined, Json | undefined][] = [
      ['W2 c8', lib(w.W2)?.c8?.event_loop_delay, undefined],
      ['W2 c32', lib(w.W2)?.c32?.event_loop_delay, undefined],
      ['W6', w6?.event_loop_delay, floor?.w6_pattern],
      ['SCALE 1000 waiters (queueing)', scale?.waiters?.queue_event_loop_delay, floor?.waiters_queueing],
      ['SCALE 1000 waiters (drain)', scale?.waiters?.drain_event_loop_delay, undefined],
      ['SCALE 10000 held locks (acquire)', scale?.held_locks?.new_dirs?.acquire_event_loop_delay, floor?.held_locks_acquire],
      ['SCALE 10000 held locks (release)', scale?.held_locks?.new_dirs?.release_event_loop_delay, floor?.held_locks_release],
    ];
    const ms = (delay: Json) => `${fmt(delay.p999_ms, 2)} ms (max ${fmt(delay.max_ms, 2)})`;
    for (const [workload, delay, bare] of loopRows) {
      if (!delay) continue;
      rows.push({
        workload, metric: 'event-loop delay p99.9', value: ms(delay),
        target: `≤ ${EVENT_LOOP_P999_GOAL_MS} ms${bare ? `; bare client ${ms(bare)}` : ''}`, met: delay.p999_ms <= EVENT_LOOP_P999_GOAL_MS,
      });
    }

    for (const row of rows) row.driver ??= driver;
  }

  // Curator's own failures (its figures then fall back to BENCHMARKS.md's, labelled so).
  for (const key of ['W1', 'W2', 'W7', 'W8']) {
    const curator = w[key]?.curator;
    if (curator?.error) rows.push({ workload: key, driver: 'Curator', metric: 'error', value: String(curator.error), target: '' });
  }

  const w4 = w.W4?.[IMPL];
  if (!failed('W4', w4)) {
    const timeout = w4.session_timeout_ms;
    if (!failed('W4 graceful', w4.graceful)) {
      rows.push({ workload: 'W4', driver: w4.driver ?? 'native', metric: 'graceful hand-over median', value: `${fmt(w4.graceful.median_ms)} ms`, target: '≤ 2 ms', met: w4.graceful.median_ms <= 2 });
    }
    const bare = [
      ['node-zookeeper', 'bare client, same election (floor)'],
      ['node-zookeeper-relisting', "bare client, kazoo's and Curator's election"],
    ] as const;
    for (const [impl, label] of bare) {
      const floor = w.W4?.[impl];
      if (floor && !failed(`W4 ${impl}`, floor) && !failed(`W4 ${impl} graceful`, floor.graceful)) {
        rows.push({ workload: 'W4', driver: 'native (bare)', metric: `graceful hand-over median, ${label}`, value: `${fmt(floor.graceful.median_ms)} ms`, target: '' });
      }
    }
    if (!failed('W4 crash', w4.crash)) {
      rows.push({ workload: 'W4', driver: w4.driver ?? 'native', metric: `crash hand-over median (${timeout} ms session)`, value: `${fmt(w4.crash.median_ms, 1)} ms`, target: `≤ ${timeout} ms`, met: w4.crash.median_ms <= timeout });
    }
  }

  const floor = w.LOOP?.['node-zookeeper'];
  const ms = (delay: Json) => `${fmt(delay.p999_ms, 2)} ms (max ${fmt(delay.max_ms, 2)})`;
  if (floor?.idle_beside) rows.push({ workload: 'LOOP', driver: 'native (bare)', metric: 'event-loop delay p99.9 of an idle process beside the bare client', value: ms(floor.idle_beside), target: '' });

  const header = ['Workload', 'Driver', 'Metric', IMPL, 'Curator 5.4', 'kazoo 2.8', 'Goal', 'Met'];
  const lines = rows.map((r) => [r.workload, r.driver ?? '', r.metric, r.value, r.curator ?? '', r.kazoo ?? '', r.target, r.met === undefined ? '' : r.met ? 'yes' : '**no**']);
  const table = [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`);
  return `${doc.quick ? '(quick run: smaller counts, not comparable)\n' : ''}${table.join('\n')}\n${driverComparison(doc)}`;
}
