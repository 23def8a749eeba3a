/**
 * Issue 14 S2 / DESIGN §8.8: no code runs as the holder of a lease after that lease is released.
 * A flow forked inside a locked call (an unawaited `withLock` of the same name, a timer) carries
 * the call's async context. While the lease is held, a re-entry pins it: the lease is released
 * only when the outer call and every re-entrant call have ended. A re-entry attempted after the
 * release is refused with `LockLostError`, neither run nor queued. Every release aborts `signal`,
 * and a normal release is not reported as `lock.lost`.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { describe, it } from 'node:test';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { ZkLockEvents } from '../../src/observability/zk-lock-events.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { withTimeout } from '../support/wait.js';
import { lockAppSuite, openSession, queueNodes, sharedConnect, testRoot } from './lock-test-kit.js';
/** A promise the test resolves when it wants. */
function gate() {
    let open;
    const promise = new Promise((resolve) => (open = resolve));
    return { promise, open };
}
const root = testRoot();
const suite = lockAppSuite(root);
describe('re-entry and the lease (S2)', () => {
    it('an unawaited inner withLock that outlives the outer call keeps the lock until it ends', async () => {
        const other = await openSession(sharedConnect());
        try {
            const rival = new LockClient(other, { root });
            const innerMayEnd = gate();
            const outerFnEnded = gate();
            let inner;
            let outerSettled = false;
            const outer = suite.locks
                .withLock('pinned', () => {
                // Forked, not awaited: it re-enters the lease the outer call holds.
                inner = suite.locks.withLock('pinned', () => innerMayEnd.promise);
                outerFnEnded.open();
            })
                .finally(() => (outerSettled = true));
            await outerFnEnded.promise;
            // The outer fn has returned; the inner call still runs as the holder.
            const attempt = await rival.tryAcquire('pinned');
            assert.equal(attempt, undefined, 'another session was granted the lock while a re-entrant call still ran as its holder');
            assert.equal(outerSettled, false, 'the outer withLock resolved while a re-entrant call still held its lease');
            innerMayEnd.open();
            await withTimeout(Promise.all([inner, outer]), 5000, 'the calls did not end');
            const after = await withTimeout(rival.acquire('pinned', { waitMs: 5000 }), 6000, 'the lock was never released');
            await after.release();
        }
        finally {
            other.close();
        }
    });
    it('a timer firing after the release that calls withLock is refused with LockLostError, neither run nor queued', async () => {
        const fire = gate();
        let late;
        let ran = 0;
        let path = '';
        await suite.locks.withLock('timer', (lock) => {
            path = lock.lease.path;
            late = fire.promise.then(() => suite.locks.withLock('timer', () => {
                ran += 1;
                return 'ran';
            }));
        });
        fire.open();
        const error = await withTimeout(late.then(() => undefined, (failure) => failure), 5000, 'the late call neither ran nor failed');
        assert.ok(error instanceof LockLostError, `refused with LockLostError, got ${String(error)}`);
        assert.equal(error.lockPath, path, 'the error names the lock');
        assert.equal(ran, 0, 'the late call ran');
        assert.deepEqual(await queueNodes(suite.observer, `${root}/locks/timer`), [], 'the late call queued a fresh acquisition');
    });
    it('signal aborts on every release, and a normal release is not reported as lock.lost', async () => {
        const events = [];
        const subscription = suite.app.get(ZkLockEvents).events$.subscribe((event) => events.push(event));
        try {
            const lease = await suite.locks.acquire('signal');
            assert.equal(lease.signal.aborted, false);
            await lease.release();
            assert.equal(lease.signal.aborted, true, 'signal of a released raw lease');
            assert.ok(lease.signal.reason instanceof LockLostError);
            let signal;
            await suite.locks.withLock('signal', (lock) => {
                signal = lock.signal;
            });
            assert.equal(signal.aborted, true, 'signal of a withLock call after it returned');
            let failedSignal;
            await assert.rejects(suite.locks.withLock('signal', (lock) => {
                failedSignal = lock.signal;
                throw new Error('fn failed');
            }), /fn failed/);
            assert.equal(failedSignal.aborted, true, 'signal of a withLock call that threw');
            assert.deepEqual(events.filter((event) => event.type === 'lock.lost'), [], 'normal releases reported as lost');
            assert.equal(events.filter((event) => event.type === 'lock.released').length, 3);
        }
        finally {
            subscription.unsubscribe();
        }
    });
});
//# sourceMappingURL=reentry-lease.test.js.map