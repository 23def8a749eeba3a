const FULL = {
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
    w6_clients: 8,
    w6_names: 1000,
    w6_acquisitions: 4000,
    w6_warmup: 400,
    w6_await_sweep: true,
    session_timeout_ms: 30000,
    w7_clients: 8,
    w7_operations: 2000,
    w7_write_every: 10,
    w8_clients: 16,
    w8_max_leases: 4,
    w8_acquisitions: 2000,
    w8_hold_ms: 1,
    scale_waiters: 1000,
    scale_locks: 10000,
    server_warmup_cycles: 12000,
};
const QUICK = {
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
    scale_waiters: 200,
    scale_locks: 1000,
};
export function benchParams(quick) {
    return structuredClone(quick ? QUICK : FULL);
}
/** The implementation key of this library in result documents, and its lock name. */
export const IMPL = 'nestjs-zk-lock';
export const LOCK_NAME = 'bench';
//# sourceMappingURL=params.js.map