/** Workload sizes: the spec's (BENCHMARKS.md) for a full run, smaller ones for `--quick`. */
import { createRequire } from 'node:module';
import type { ZkDriver } from '../src/index.js';

export interface BenchParams {
  w1_warmup: number;
  w1_cycles: number;
  w2_clients: number[];
  w2_warmup: number;
  w2_acquisitions: number;
  w3_waiters: number;
  w4_trials: number;
  w4_session_timeout_ms: number;
  w5_warmup: number;
  w5_cycles: number;
  /** W6: clients walking one list of `w6_acquisitions` entries over `w6_names` lock names, after `w6_warmup` over 100 others. */
  w6_clients: number;
  w6_names: number;
  w6_acquisitions: number;
  w6_warmup: number;
  /** W6: wait for the server's container sweep (up to two minutes) and count what is left after it. */
  w6_await_sweep: boolean;
  session_timeout_ms: number;
  /** W7: clients on one read/write lock, operations (ticket k is a write when k % write_every == 0). */
  w7_clients: number;
  w7_operations: number;
  w7_write_every: number;
  /** W8: clients on one semaphore of `w8_max_leases` permits, single-permit acquisitions each held `w8_hold_ms`. */
  w8_clients: number;
  w8_max_leases: number;
  w8_acquisitions: number;
  w8_hold_ms: number;
  /** W9: partitions of the set, trials (each 3 → 4 → 3 → 2 replicas), and the replicas' session timeout. */
  w9_partitions: number;
  w9_trials: number;
  w9_session_timeout_ms: number;
  scale_waiters: number;
  scale_locks: number;
  /** SCALE: idle sessions opened side by side to weigh one (heap and RSS per session). */
  scale_idle_sessions: number;
  /** Unmeasured request cycles the driver runs on the fresh server before the first workload. */
  server_warmup_cycles: number;
  /**
   * Rounds of the driver comparison's speed workloads (W1, W2, W5, W6), each running both drivers,
   * in alternating order: the comparison takes each figure's median over the rounds.
   */
  driver_rounds: number;
}

// Warm-ups: long enough that every client is measured in its steady state, as a service runs for
// hours. A client's first few thousand requests run in V8's (or HotSpot's) early tiers with a
// young heap still growing: measured on W1 with 200 warm-up cycles, either driver's CPU per cycle
// was 3 to 4 times its steady figure, and the TypeScript driver, with more JavaScript to compile,
// paid more of it (p50 0.80 ms against 0.60); after 5000 cycles, 0.36 against 0.37–0.56.
const FULL: BenchParams = {
  w1_warmup: 5000,
  w1_cycles: 2000,
  // 8 and 32 are BENCHMARKS.md's; 2 beside them: two contenders, where every grant is a lock's
  // hand-off in one notification (README, Locks), which the longer queues never meet.
  w2_clients: [2, 8, 32],
  w2_warmup: 4000,
  w2_acquisitions: 2000,
  w3_waiters: 100,
  w4_trials: 5,
  w4_session_timeout_ms: 2000,
  w5_warmup: 5000,
  w5_cycles: 2000,
  w6_clients: 8,
  w6_names: 1000,
  w6_acquisitions: 4000,
  w6_warmup: 2000,
  w6_await_sweep: true,
  session_timeout_ms: 30000,
  w7_clients: 8,
  w7_operations: 2000,
  w7_write_every: 10,
  w8_clients: 16,
  w8_max_leases: 4,
  w8_acquisitions: 2000,
  w8_hold_ms: 1,
  w9_partitions: 64,
  w9_trials: 3,
  w9_session_timeout_ms: 2000,
  scale_waiters: 1000,
  scale_locks: 10000,
  scale_idle_sessions: 100,
  server_warmup_cycles: 12000,
  driver_rounds: 3,
};

const QUICK: BenchParams = {
  ...FULL,
  w1_warmup: 50,
  w1_cycles: 300,
  w2_warmup: 50,
  w2_acquisitions: 300,
  w3_waiters: 20,
  w4_trials: 2,
  w5_warmup: 50,
  w5_cycles: 300,
  w6_acquisitions: 1000,
  w6_await_sweep: false,
  w7_operations: 300,
  w8_acquisitions: 300,
  w9_trials: 1,
  scale_waiters: 200,
  scale_locks: 1000,
  scale_idle_sessions: 50,
  driver_rounds: 1,
};

export function benchParams(quick: boolean): BenchParams {
  return structuredClone(quick ? QUICK : FULL);
}

/** The implementation key of this library in result documents, and its lock name. */
export const IMPL = 'nestjs-zk-lock';
export const LOCK_NAME = 'bench';

/** The library's client drivers, both measured in one run (the default first). */
export type BenchDriver = ZkDriver;
export const DRIVERS: readonly BenchDriver[] = ['typescript', 'native'];

/** `--driver`'s value; absent means the library's default, `typescript`. */
export function parseDriver(value: string | true | undefined): BenchDriver {
  if (value === undefined) return 'typescript';
  const driver = DRIVERS.find((d) => d === value);
  if (!driver) throw new Error(`--driver must be one of ${DRIVERS.join(', ')}, got ${String(value)}`);
  return driver;
}

/**
 * The result key of the library on `driver`: `nestjs-zk-lock` for the default driver (the key
 * every earlier document used), `nestjs-zk-lock.native` for the other. Every result also says its
 * `driver`; a result without one predates the TypeScript driver and measured the native client.
 */
export function libraryKey(driver: BenchDriver): string {
  return driver === 'typescript' ? IMPL : `${IMPL}.${driver}`;
}

/**
 * A workload's root on `driver`: the spec's path for the default driver, `<path>-native` for the
 * other. The drivers run one after the other within a minute, before the server's container sweep
 * (about once a minute) removed the lock directories the first left empty: on a shared root, the
 * second would meet directories the first made and pay fewer requests (W6, SCALE's new names).
 */
export function driverRoot(root: string, driver: BenchDriver): string {
  return driver === 'typescript' ? root : `${root}-${driver}`;
}

/** The library's package version (for `impl_version`), read without loading the library. */
export function implVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
}
