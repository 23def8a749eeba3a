import { ZkLockError } from './zk-lock.error.js';
/** The lock is held by someone else and the caller asked not to wait (`onBusy: 'throw'`). */
export class LockBusyError extends ZkLockError {
    constructor(lockPath) {
        super('ZK_LOCK_BUSY', `Lock ${lockPath} is held by another owner`);
        this.lockPath = lockPath;
    }
}
//# sourceMappingURL=lock-busy.error.js.map