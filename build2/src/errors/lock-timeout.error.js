import { ZkLockError } from './zk-lock.error.js';
/** The lock was not granted within the wait timeout; our place in the queue has been given up. */
export class LockTimeoutError extends ZkLockError {
    constructor(lockPath, waitMs) {
        super('ZK_LOCK_TIMEOUT', `Lock ${lockPath} was not acquired within ${waitMs} ms`);
        this.lockPath = lockPath;
        this.waitMs = waitMs;
    }
}
//# sourceMappingURL=lock-timeout.error.js.map