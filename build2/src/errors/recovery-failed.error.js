import { ZkLockError } from './zk-lock.error.js';
/** The recovery handler threw; the state stays dirty so that the next holder tries again. */
export class RecoveryFailedError extends ZkLockError {
    constructor(lockPath, cause) {
        super('ZK_RECOVERY_FAILED', `Recovery of ${lockPath} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
        this.lockPath = lockPath;
    }
}
//# sourceMappingURL=recovery-failed.error.js.map