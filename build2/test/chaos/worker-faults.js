/**
 * The worker's side of the oversize-checkpoint and block-worker faults (trust-faults.ts), played
 * inside a section of chaos-worker.ts right after its checkpoint.
 */
import { setTimeout as sleep } from 'node:timers/promises';
/**
 * One checkpoint with a record over the library's size bound (issue 14, T1). The fixed library
 * refuses it before sending (`code` ZK_RECORD_TOO_LARGE; matched by code, so that this file does
 * not depend on the error class) and the section carries on. The record keeps `v`, so that were it
 * ever written, the repair of this section would still be right.
 */
export async function oversizeCheckpoint(io, lock, token, v, bytes) {
    io.log.write({ ev: 'oversize', token, bytes });
    io.notify({ type: 'oversize-attempt' });
    try {
        await lock.checkpoint({ v, pad: 'x'.repeat(bytes) });
        io.log.write({ ev: 'oversize-result', token, accepted: true });
        io.notify({ type: 'oversize-result', accepted: true });
    }
    catch (error) {
        const code = error.code;
        io.log.write({ ev: 'oversize-result', token, accepted: false, code: typeof code === 'string' ? code : undefined, error: io.describe(error) });
        io.notify({ type: 'oversize-result', accepted: false, code });
        // Refused as too large is the expected outcome; anything else ends the section like any failure.
        if (code !== 'ZK_RECORD_TOO_LARGE')
            throw error;
    }
}
/**
 * Blocks the event loop (a synchronous busy-wait: a long GC, a CPU-bound task) for `blockMs`, after
 * `idleMs` of quiet work that lets the last answered request age (the block is then unsafe: the
 * server may expire the session meanwhile, and the loss clock must say so).
 */
export async function blockLoop(io, token, idleMs, blockMs) {
    if (idleMs > 0)
        await sleep(idleMs);
    const start = process.hrtime.bigint();
    const until = start + BigInt(Math.round(blockMs * 1e6));
    while (process.hrtime.bigint() < until) {
        // busy: nothing else of this process runs, neither timers nor the ZooKeeper client's pings
    }
    const end = process.hrtime.bigint();
    io.log.write({ ev: 'block', token, start, end });
    io.notify({ type: 'blocked', start: start.toString(), end: end.toString() });
}
//# sourceMappingURL=worker-faults.js.map