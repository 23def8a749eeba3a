/**
 * Invariant 3 for the waits a caller gives up: a timeout, an abort, a try on a busy lock and
 * `withLock`'s `onBusy` leave no queue node behind, fail with the typed error, and never run the
 * locked function. The lock is held by another session throughout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockAbortedError } from '../../src/errors/lock-aborted.error.js';
import { LockBusyError } from '../../src/errors/lock-busy.error.js';
import { LockTimeoutError } from '../../src/errors/lock-timeout.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { LockService } from '../../src/services/lock.service.js';
import { basenameOf } from '../../src/zookeeper/znode-path.js';
import { waitFor } from '../support/wait.js';
import { openSession, queueNodes, sharedConnect, startLockApp, testRoot } from './lock-test-kit.js';
describe('giving up leaves nothing behind', () => {
    const root = testRoot();
    let other;
    let app;
    let locks;
    let holder;
    let dir;
    let ran = 0;
    const body = () => void (ran += 1);
    before(async () => {
        other = await openSession(sharedConnect());
        const otherLocks = new LockClient(other, { root });
        holder = await otherLocks.acquire('busy');
        dir = otherLocks.pathOf('busy');
        app = await startLockApp({ connect: sharedConnect(), root, sessionTimeoutMs: 4000 }, []);
        locks = app.get(LockService);
    });
    after(async () => {
        await app?.close();
        other?.close();
    });
    /** Only the other session's node is left in the queue. */
    async function onlyHolderQueued() {
        assert.deepEqual(await queueNodes(other, dir), [basenameOf(holder.path)]);
    }
    it('acquire with waitMs on a held lock: LockTimeoutError, our node removed', async () => {
        await assert.rejects(locks.acquire('busy', { waitMs: 200 }), LockTimeoutError);
        await onlyHolderQueued();
    });
    it('acquire aborted while queued: LockAbortedError carrying the reason, our node removed', async () => {
        const controller = new AbortController();
        const acquiring = locks.acquire('busy', { signal: controller.signal });
        // Abort only once our node is queued, so that the abort has something to clean up.
        await waitFor(async () => (await queueNodes(other, dir)).length === 2, { timeoutMs: 5000, intervalMs: 10, message: 'our node queued' });
        controller.abort(new Error('caller gave up'));
        await assert.rejects(acquiring, (error) => error instanceof LockAbortedError && error.cause.message === 'caller gave up');
        await onlyHolderQueued();
    });
    it('acquire with an already aborted signal: LockAbortedError before any node is created', async () => {
        await assert.rejects(locks.acquire('busy', { signal: AbortSignal.abort() }), LockAbortedError);
        await onlyHolderQueued();
    });
    it('tryAcquire on a busy lock: undefined, our node removed', async () => {
        assert.equal(await locks.tryAcquire('busy'), undefined);
        await onlyHolderQueued();
    });
    it("withLock onBusy 'skip' returns undefined without running; 'throw' throws LockBusyError", async () => {
        assert.equal(await locks.withLock('busy', body, { onBusy: 'skip' }), undefined);
        await onlyHolderQueued();
        await assert.rejects(locks.withLock('busy', body, { onBusy: 'throw' }), LockBusyError);
        await onlyHolderQueued();
        await assert.rejects(locks.withLock('busy', body, { onBusy: 'throw', waitMs: 100 }), LockBusyError);
        await assert.rejects(locks.withLock('busy', body, { waitMs: 100 }), LockTimeoutError);
        assert.equal(await locks.withLock('busy', body, { onBusy: 'skip', waitMs: 100 }), undefined);
        await onlyHolderQueued();
        assert.equal(ran, 0, 'the locked function never ran');
    });
    it('once the holder releases, the same calls succeed and leave an empty queue', async () => {
        await holder.release();
        assert.equal(await locks.withLock('busy', () => 'ran', { onBusy: 'throw' }), 'ran');
        const lease = await locks.tryAcquire('busy');
        assert.ok(lease);
        await lease.release();
        await (await locks.acquire('busy', { waitMs: 200 })).release();
        assert.deepEqual(await queueNodes(other, dir), []);
    });
});
//# sourceMappingURL=timeout-abort.test.js.map