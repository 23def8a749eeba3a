import { ZkLockError } from './zk-lock.error.js';
/**
 * Our queue node could not be deleted for a reason no retry can fix (e.g. NOAUTH: its ACL was
 * changed by hand). It stays until its session ends, and while it does, the lock (or leadership)
 * it stands for is not handed over: remove it by hand, or close the session.
 */
export class QueueNodeNotRemovedError extends ZkLockError {
    constructor(path, cause) {
        const why = cause instanceof Error ? cause.message : String(cause);
        super('ZK_QUEUE_NODE_NOT_REMOVED', `Could not delete queue node ${path} (${why}); it stays until its session ends`, { cause });
        this.path = path;
    }
}
//# sourceMappingURL=queue-node-not-removed.error.js.map