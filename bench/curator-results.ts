/**
 * Curator's results (curator-peer.ts) in the shape and with the figures of the library's own
 * workloads (w1-uncontended.ts, w2-contended.ts, w7-read-write.ts, w8-semaphore.ts), so that the
 * table reads `workloads.<W>.curator` the way it reads `workloads.<W>.nestjs-zk-lock`. The Java
 * program reports raw timings (ms on its monotonic clock); the summaries are computed here.
 */
import type { ServerDelta } from './mntr.js';
import type { BenchParams } from './params.js';
import { handoffs, rate, ratio, round3, summarize } from './stats.js';

/** One measured region: what the Java program printed, and the server's counters around it. */
export interface Region {
  timings: Record<string, any>; // the program's JSON: numbers and arrays of numbers, as named below
  server: ServerDelta;
}

const perOperation = (server: ServerDelta, count: number, unit: string) => ({
  server,
  [`requests_per_${unit}`]: ratio(server.requests, count),
  [`packets_received_per_${unit}`]: ratio(server.packets_received, count),
  [`watch_notifications_per_${unit}`]: ratio(server.watch_notifications, count),
});

function region(regions: ReadonlyMap<string, Region>, label: string): Region {
  const r = regions.get(label);
  if (!r) throw new Error(`the peer measured no region ${label}`);
  return r;
}

export function curatorResult(workload: string, params: BenchParams, identity: Record<string, unknown>, regions: ReadonlyMap<string, Region>): Record<string, unknown> {
  if (workload === 'W1' || workload === 'W1A') {
    const { timings: t, server } = region(regions, 'w1');
    const elapsed = t.elapsed_ms / 1000;
    return {
      ...identity,
      recipe: 'InterProcessMutex.acquire/release, one mutex reused',
      warmup_cycles: params.w1_warmup,
      cycles: params.w1_cycles,
      elapsed_s: round3(elapsed),
      cycles_per_s: rate(params.w1_cycles, elapsed),
      cycle_ms: summarize(t.cycle_ms),
      server,
      requests_per_cycle: ratio(server.requests, params.w1_cycles),
      packets_received_per_cycle: ratio(server.packets_received, params.w1_cycles),
    };
  }
  if (workload === 'W2') {
    const result: Record<string, unknown> = {};
    for (const clients of params.w2_clients) {
      const { timings: t, server } = region(regions, `c${clients}`);
      const total = params.w2_acquisitions;
      const elapsed = (Math.max(...t.rel) - t.t_start) / 1000;
      const handoffMs = handoffs(t.acq, t.rel);
      result[`c${clients}`] = {
        ...identity,
        recipe: 'InterProcessMutex.acquire/release, one thread per client',
        clients,
        warmup_acquisitions: params.w2_warmup,
        acquisitions: total,
        hold_ms: 0,
        elapsed_s: round3(elapsed),
        acquisitions_per_s: rate(total, elapsed),
        handoff_ms: summarize(handoffMs),
        negative_handoffs: handoffMs.filter((h) => h < 0).length,
        ...perOperation(server, total, 'acquisition'),
      };
    }
    return result;
  }
  if (workload === 'W7') {
    const { timings: t, server } = region(regions, 'w7');
    const total = params.w7_operations;
    const elapsed = (t.last_release - t.t_start) / 1000;
    return {
      ...identity,
      recipe: 'InterProcessReadWriteLock readLock()/writeLock() acquire/release, one thread per client',
      clients: params.w7_clients,
      operations: total,
      write_every: params.w7_write_every,
      read_operations: t.read_ms.length,
      write_operations: t.write_ms.length,
      hold_ms: 0,
      hold: 'no work; one Thread.yield() between counting in and out (threads run side by side)',
      elapsed_s: round3(elapsed),
      operations_per_s: rate(total, elapsed),
      read_acquire_ms: summarize(t.read_ms),
      write_acquire_ms: summarize(t.write_ms),
      max_concurrent_readers: t.max_readers,
      exclusion_violations: t.violations,
      exclusion_violation_samples: t.violation_samples,
      ...perOperation(server, total, 'operation'),
    };
  }
  const { timings: t, server } = region(regions, 'w8');
  const total = params.w8_acquisitions;
  const elapsed = (t.last_release - t.t_start) / 1000;
  return {
    ...identity,
    recipe: `InterProcessSemaphoreV2(${params.w8_max_leases}) acquire()/returnLease, one thread per client`,
    clients: params.w8_clients,
    max_leases: params.w8_max_leases,
    acquisitions: total,
    hold_ms: params.w8_hold_ms,
    elapsed_s: round3(elapsed),
    acquisitions_per_s: rate(total, elapsed),
    acquire_ms: summarize(t.acquire_ms),
    max_concurrent_holders: t.max_holders,
    exclusion_violations: t.violations,
    exclusion_violation_samples: t.violation_samples,
    ...perOperation(server, total, 'acquisition'),
  };
}
