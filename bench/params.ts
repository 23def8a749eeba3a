/** Workload sizes: the spec's (BENCHMARKS.md) for a full run, smaller ones for `--quick`. */
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
  session_timeout_ms: number;
  scale_waiters: number;
  scale_locks: number;
  /** Unmeasured request cycles the driver runs on the fresh server before the first workload. */
  server_warmup_cycles: number;
}

const FULL: BenchParams = {
  w1_warmup: 200,
  w1_cycles: 2000,
  w2_clients: [8, 32],
  w2_warmup: 200,
  w2_acquisitions: 2000,
  w3_waiters: 100,
  w4_trials: 5,
  w4_session_timeout_ms: 2000,
  w5_warmup: 200,
  w5_cycles: 2000,
  session_timeout_ms: 30000,
  scale_waiters: 1000,
  scale_locks: 10000,
  server_warmup_cycles: 12000,
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
  scale_waiters: 200,
  scale_locks: 1000,
};

export function benchParams(quick: boolean): BenchParams {
  return structuredClone(quick ? QUICK : FULL);
}

/** The implementation key of this library in result documents, and its lock name. */
export const IMPL = 'nestjs-zk-lock';
export const LOCK_NAME = 'bench';
