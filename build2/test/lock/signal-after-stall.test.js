/**
 * Issue 29, item 10: after a stall of the process past the loss deadline (a long GC, a blocked
 * event loop), the lease's documented checks must agree at the instant they are read. The abort of
 * `signal` comes from a timer, which Node may run after the holder's own continuation: a holder
 * that checks `lease.signal.aborted` right before a side effect (as the README suggests) would
 * otherwise see `false` while `assertHeld()` already refuses.
 *
 * The stall is a synchronous busy loop on a real session: nothing else runs until it ends, and the
 * holder reads its lease in the same turn.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { isConnectedState } from '../../src/zookeeper/session-state.js';
import { waitFor } from '../support/wait.js';
import { openSession, sharedConnect, testRoot } from './lock-test-kit.js';
const SESSION_TIMEOUT_MS = 2000;
/** Blocks the event loop for `ms`: the process runs nothing else meanwhile, as in a long GC pause. */
function stall(ms) {
    const until = performance.now() + ms;
    while (performance.now() < until) {
        // busy: no timer, no I/O callback can run
    }
}
describe('a lease read right after a stall past the loss deadline', () => {
    let session;
    before(async () => {
        session = await openSession(sharedConnect(), SESSION_TIMEOUT_MS);
    });
    after(() => session?.close());
    for (const first of ['signal', 'isHeld', 'assertHeld']) {
        it(`agrees in every check when ${first} is read first`, async () => {
            const locks = new LockClient(session, { root: testRoot() });
            const lease = await locks.acquire('stalled');
            stall(SESSION_TIMEOUT_MS + 200);
            // The same turn: the loss timer has not run yet.
            const read = {
                signal: () => lease.signal.aborted,
                isHeld: () => !lease.isHeld,
                assertHeld: () => {
                    try {
                        lease.assertHeld();
                        return false;
                    }
                    catch (error) {
                        assert.ok(error instanceof LockLostError, String(error));
                        return true;
                    }
                },
            };
            const order = [first, ...['signal', 'isHeld', 'assertHeld'].filter((check) => check !== first)];
            const verdicts = Object.fromEntries(order.map((check) => [check, read[check]()]));
            assert.deepEqual(verdicts, { signal: true, isHeld: true, assertHeld: true }, 'every check says the lease may be lost');
            await lease.release();
            // The session itself lives on: the heartbeat's next proofs through the leader confirm it.
            await waitFor(() => !session.mayHaveExpired && isConnectedState(session.state), { timeoutMs: 10_000, message: 'the session confirmed again' });
        });
    }
});
//# sourceMappingURL=signal-after-stall.test.js.map