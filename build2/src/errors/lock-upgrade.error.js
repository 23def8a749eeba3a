import { ZkLockError } from './zk-lock.error.js';
/**
 * A call chain that holds the read lock asked for the write lock of the same read/write lock. It
 * would wait for every reader to leave, itself included: a deadlock with itself. Take the write
 * lock first (a write holder may read, `withReadLock` re-enters it), or end the read first.
 */
export class LockUpgradeError extends ZkLockError {
    constructor(lockPath) {
        super('ZK_LOCK_UPGRADE', `withWriteLock on ${lockPath} in a call chain that holds its read lock would wait for itself forever. ` +
            'Take the write lock first (a write holder may also take the read lock), or release the read lock first.');
        this.lockPath = lockPath;
    }
}
//# sourceMappingURL=lock-upgrade.error.js.map