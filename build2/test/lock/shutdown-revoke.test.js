/**
 * Issue 14 S3 / DESIGN §8.8: the forced release at shutdown tells the holders. After
 * `drainTimeoutMs`, every lease still held is revoked: its `signal` aborts with `LockLostError`
 * (the application is shutting down) before its node is deleted, and the locked call that was
 * still running ends with that error instead of returning as if it had held the lock throughout.
 * A grant that arrives after `LockClient.close()` began is aborted and released at once.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { describe, it } from 'node:test';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { ZkLockEvents } from '../../src/observability/zk-lock-events.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { LockService } from '../../src/services/lock.service.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { openSession, queueNodes, sharedConnect, startLockApp, testRoot } from './lock-test-kit.js';
describe('forced release at shutdown (S3)', () => {
    it('a call still running after drainTimeoutMs is told before its node is deleted, and ends with LockLostError', async () => {
        const root = testRoot();
        const app = await startLockApp({ connect: sharedConnect(), root, sessionTimeoutMs: 4000, drainTimeoutMs: 100 }, []);
        const locks = app.get(LockService);
        const order = [];
        app.get(ZkLockEvents).events$.subscribe((event) => {
            if (event.type === 'lock.lost' || event.type === 'lock.released')
                order.push(event.type);
        });
        let finish;
        const stuck = new Promise((resolve) => (finish = resolve));
        let signal;
        let started;
        const running = new Promise((resolve) => (started = resolve));
        const call = locks.withLock('stuck', async (lock) => {
            signal = lock.signal;
            signal.addEventListener('abort', () => order.push('abort'));
            started();
            await stuck; // ignores the drain: still running when the lock is taken away
        });
        const outcome = call.then(() => undefined, (error) => error);
        await running;
        await withTimeout(app.close(), 15_000, 'app.close() did not finish');
        assert.equal(signal.aborted, true, 'the running call was not told that its lock was taken away');
        assert.ok(signal.reason instanceof LockLostError);
        assert.match(signal.reason.message, /shutting down/);
        assert.deepEqual(order, ['abort', 'lock.lost', 'lock.released'], 'told before the delete that hands the lock over');
        finish();
        const error = await withTimeout(outcome, 5000, 'the call did not end');
        assert.ok(error instanceof LockLostError, `the call ended with ${String(error)}, not LockLostError`);
        assert.match(error.message, /shutting down/);
        const observer = await openSession(sharedConnect());
        try {
            assert.deepEqual(await queueNodes(observer, `${root}/locks/stuck`), []);
        }
        finally {
            observer.close();
        }
    });
    it('a grant arriving after LockClient.close() began is aborted and released at once', async () => {
        const root = testRoot();
        const [a, b, observer] = await Promise.all([openSession(sharedConnect()), openSession(sharedConnect()), openSession(sharedConnect())]);
        try {
            const holder = await new LockClient(a, { root }).acquire('late-grant');
            const closing = new LockClient(b, { root });
            const waiting = closing.acquire('late-grant');
            await waitFor(async () => (await queueNodes(observer, `${root}/locks/late-grant`)).length === 2, { message: 'the waiter queued' });
            await withTimeout(closing.close('closed by the test'), 5000, 'close() did not finish');
            await holder.release(); // hands the lock to the waiter of the closed client
            const lease = await withTimeout(waiting, 5000, 'the waiter was never granted');
            assert.equal(lease.isHeld, false, 'a lease granted after close() is held');
            assert.equal(lease.signal.aborted, true, 'its signal did not abort');
            assert.ok(lease.signal.reason instanceof LockLostError);
            assert.match(lease.signal.reason.message, /closed by the test/);
            await waitFor(async () => (await queueNodes(observer, `${root}/locks/late-grant`)).length === 0, { message: 'its node was deleted' });
        }
        finally {
            a.close();
            b.close();
            observer.close();
        }
    });
});
//# sourceMappingURL=shutdown-revoke.test.js.map