import { ZkLockError } from '../errors/zk-lock.error.js';
/**
 * The lock held by the current locked call, as `withLock` (and `withReadLock`, `withWriteLock`,
 * `withSemaphore`) callbacks receive it and `LockService.current()` returns it anywhere below that call.
 */
export class HeldLock {
    constructor(name, lease, section, 
    /** Which kind of lock: a lock's (`withLock`), a read or write lock's, or a semaphore's permits. */
    kind = 'lock') {
        this.name = name;
        this.lease = lease;
        this.section = section;
        this.kind = kind;
    }
    /** Strictly increasing per lock: hand it to the storage you write to, which refuses older tokens. */
    get fencingToken() {
        return this.lease.fencingToken;
    }
    /** Aborts (with `LockLostError`) when the lock may no longer be exclusive: stop the work. */
    get signal() {
        return this.lease.signal;
    }
    /**
     * Aborts (with `ReleaseRequestedError`) once another process asked this holder to let go
     * (`LockService.requestRelease`): stop at a safe point and return. The lock stays held until the
     * call ends; nothing is released for it. Its first read costs one request (a watch on the lock's
     * node); a call that never reads it costs nothing. See `Lease.releaseRequested`.
     */
    get releaseRequested() {
        return this.lease.releaseRequested;
    }
    /** The interrupted predecessor that the recovery handler repaired before this call, if any. */
    get recovered() {
        return this.section?.recovered;
    }
    /**
     * Records progress (any JSON value) in the lock's ready znode. If this process dies before the
     * call completes, the next holder's recovery handler receives the last checkpoint.
     * Available when the lock has a recovery handler (a guarded lock).
     */
    async checkpoint(progress) {
        if (!this.section) {
            throw new ZkLockError('ZK_NOT_GUARDED', `checkpoint() on lock "${this.name}" needs a recovery handler (option \`recover\`)`);
        }
        this.lease.assertHeld();
        try {
            await this.section.checkpoint(progress);
        }
        catch (error) {
            // The write failed while the lease was being lost (e.g. the first write after a process
            // pause dies with the connection the server closed): report the loss, not its symptom.
            this.lease.assertHeld();
            throw error;
        }
    }
}
//# sourceMappingURL=held-lock.js.map