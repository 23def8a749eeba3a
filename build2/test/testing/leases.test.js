/**
 * Issue 14 S2 / S3 on `ZkLockTestingModule`: its locks are the production ones (on the simulated
 * server), with their lease semantics, so that unit tests see what production does. Re-entrant calls pin the lease, a
 * re-entry after the release (or a loss) is refused with `LockLostError`, every release aborts
 * `signal`, and shutdown revokes the leases of calls still running (their signal aborts first,
 * and they end with `LockLostError`).
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { Test } from '@nestjs/testing';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { LockLostError, LockService } from '../../src/index.js';
import { ZkLockTesting, ZkLockTestingModule } from '../../src/testing/index.js';
function gate() {
    let open;
    const promise = new Promise((resolve) => (open = resolve));
    return { promise, open };
}
describe('ZkLockTestingModule: leases like the real ones', () => {
    let moduleRef;
    let locks;
    let testing;
    beforeEach(async () => {
        moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot({ drainTimeoutMs: 0 })] }).compile();
        await moduleRef.init();
        locks = moduleRef.get(LockService);
        testing = moduleRef.get(ZkLockTesting);
    });
    afterEach(() => moduleRef.close());
    it('an unawaited re-entrant call keeps the lock until it ends; the outer call resolves after it', async () => {
        const innerMayEnd = gate();
        const outerFnEnded = gate();
        let inner;
        let outerSettled = false;
        const outer = locks
            .withLock('pinned', () => {
            inner = locks.withLock('pinned', () => innerMayEnd.promise);
            outerFnEnded.open();
        })
            .finally(() => (outerSettled = true));
        await outerFnEnded.promise;
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(testing.lockState('pinned').held, true, 'released while a re-entrant call ran');
        assert.equal(await locks.tryAcquire('pinned'), undefined, 'granted to another flow while a re-entrant call ran');
        assert.equal(outerSettled, false);
        innerMayEnd.open();
        await Promise.all([inner, outer]);
        assert.equal(testing.lockState('pinned').held, false);
    });
    it('a re-entry after the release, or after a loss, is refused with LockLostError and never queued', async () => {
        const fire = gate();
        let ran = 0;
        let late;
        await locks.withLock('late', () => {
            late = fire.promise.then(() => locks.withLock('late', () => (ran += 1)));
        });
        fire.open();
        await assert.rejects(late, LockLostError);
        const lost = gate();
        const holding = gate();
        const call = locks.withLock('lost', async () => {
            holding.open();
            await lost.promise;
            // Re-entering from inside the call after its lease was lost: refused too.
            await assert.rejects(locks.withLock('lost', () => (ran += 1)), LockLostError);
        });
        const outcome = call.then(() => undefined, (error) => error);
        await holding.promise; // granted a few round trips later, as on a server
        assert.equal(await testing.loseLock('lost'), 1);
        lost.open();
        assert.ok((await outcome) instanceof LockLostError);
        assert.equal(ran, 0);
        assert.equal(testing.lockState('late').waiting, 0);
    });
    it('every release aborts signal; shutdown revokes a running call: told first, ends with LockLostError', async () => {
        const lease = await locks.acquire('raw');
        await lease.release();
        assert.equal(lease.signal.aborted, true);
        const stuck = gate();
        let signal;
        const started = gate();
        const call = locks.withLock('stuck', async (lock) => {
            signal = lock.signal;
            started.open();
            await stuck.promise;
        });
        const outcome = call.then(() => undefined, (error) => error);
        await started.promise;
        await moduleRef.close();
        assert.equal(signal.aborted, true);
        assert.match(signal.reason.message, /shutting down/);
        stuck.open();
        const error = await outcome;
        assert.ok(error instanceof LockLostError, String(error));
        assert.match(error.message, /shutting down/);
    });
});
describe('ZkLockTestingModule: read/write locks and semaphores, as in production', () => {
    let moduleRef;
    let locks;
    beforeEach(async () => {
        moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot({ drainTimeoutMs: 0 })] }).compile();
        await moduleRef.init();
        locks = moduleRef.get(LockService);
    });
    afterEach(() => moduleRef.close());
    it('readers share, a writer waits for them; a semaphore caps its holders', async () => {
        const reading = gate();
        let readers = 0;
        const read = () => locks.withReadLock('catalogue', async () => {
            readers += 1;
            await reading.promise;
        });
        const both = [read(), read()];
        while (readers < 2)
            await new Promise((resolve) => setImmediate(resolve));
        assert.equal(await locks.withWriteLock('catalogue', () => 'written', { onBusy: 'skip' }), undefined, 'no writer while two read');
        reading.open();
        await Promise.all(both);
        assert.equal(await locks.withWriteLock('catalogue', () => 'written', { onBusy: 'throw' }), 'written');
        const holding = gate();
        const first = locks.withSemaphore('exports', { permits: 1 }, () => holding.promise);
        while (locks.heldLeases().length === 0)
            await new Promise((resolve) => setImmediate(resolve));
        assert.equal(await locks.withSemaphore('exports', { permits: 1, onBusy: 'skip' }, () => 'ran'), undefined, 'the one permit is taken');
        holding.open();
        await first;
        assert.equal(await locks.withSemaphore('exports', { permits: 1, onBusy: 'throw' }, () => 'ran'), 'ran');
    });
});
//# sourceMappingURL=leases.test.js.map