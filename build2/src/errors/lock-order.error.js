import { ZkLockError } from './zk-lock.error.js';
/**
 * `withLocks` would take `lockName` while the call chain already holds `heldName`, which comes
 * after it in the canonical order: two callers taking locks in different orders can each hold
 * what the other waits for, forever. Take both in one `withLocks`, or `lockName` first.
 */
export class LockOrderError extends ZkLockError {
    constructor(lockName, heldName) {
        super('ZK_LOCK_ORDER', `withLocks would take "${lockName}" while this call chain holds "${heldName}", which comes after it in the ` +
            'canonical order (sorted by name): callers taking locks out of that order can deadlock each other. ' +
            `Take "${lockName}" in the same withLocks call as "${heldName}", or before it.`);
        this.lockName = lockName;
        this.heldName = heldName;
    }
}
//# sourceMappingURL=lock-order.error.js.map