import { ZkLockError } from './zk-lock.error.js';
/**
 * A try-once acquisition (`tryAcquire`, `waitMs: 0`, `onBusy: 'skip' | 'throw'` without `waitMs`)
 * found the session disconnected, or lost its connection before it had an answer: whether the lock
 * is free cannot be known now, and a try-once does not wait for the ensemble to come back.
 * `reason` says which (`the session is suspended`, `CONNECTIONLOSS on create`).
 */
export class ZooKeeperUnreachableError extends ZkLockError {
    constructor(lockPath, reason, options) {
        super('ZK_UNREACHABLE', `ZooKeeper is unreachable (${reason}): could not try ${lockPath} once; it was not queued`, options);
        this.lockPath = lockPath;
        this.reason = reason;
    }
}
//# sourceMappingURL=zookeeper-unreachable.error.js.map