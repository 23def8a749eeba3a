import { ZkLockError } from './zk-lock.error.js';
/**
 * Another process asked the holder of a lock to let go (`LockService.requestRelease`): the reason
 * of `lease.releaseRequested`. Nothing was released on the holder's behalf: the lease stays held
 * until the holder releases it, so stop at a safe point and release (or end the locked call).
 */
export class ReleaseRequestedError extends ZkLockError {
    constructor(
    /** The lock's directory znode, `<root>/locks/<name>`. */
    lockPath, 
    /** The holder's queue node, which carries the request. */
    node) {
        super('ZK_RELEASE_REQUESTED', `Release of lock ${lockPath} was requested by another process (holder node ${node}); it is still held until released`);
        this.lockPath = lockPath;
        this.node = node;
    }
}
//# sourceMappingURL=release-requested.error.js.map