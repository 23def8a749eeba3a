import { ZkLockError } from './zk-lock.error.js';
/** The caller's AbortSignal fired while waiting; our place in the queue has been given up. */
export class LockAbortedError extends ZkLockError {
    constructor(lockPath, reason) {
        super('ZK_LOCK_ABORTED', `Waiting for lock ${lockPath} was aborted`, { cause: reason });
        this.lockPath = lockPath;
    }
}
//# sourceMappingURL=lock-aborted.error.js.map