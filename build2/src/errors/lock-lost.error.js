import { ZkLockError } from './zk-lock.error.js';
/**
 * The lease may no longer be exclusive: the session was (or may have been) expired by the
 * server, was closed, or another holder now owns the lock's ready state. The section that holds
 * the lease must stop; its writes must be fenced with the lease's fencing token.
 */
export class LockLostError extends ZkLockError {
    constructor(lockPath, reason) {
        super('ZK_LOCK_LOST', `Lock ${lockPath} was lost: ${reason}`);
        this.lockPath = lockPath;
        this.reason = reason;
    }
}
//# sourceMappingURL=lock-lost.error.js.map