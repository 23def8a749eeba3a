import { describeValue } from './describe-value.js';
import { ZkLockError } from './zk-lock.error.js';
/** A lock or election name that cannot be a single znode name. */
export class InvalidLockNameError extends ZkLockError {
    constructor(lockName, problem) {
        super('ZK_INVALID_LOCK_NAME', `Invalid lock name ${describeValue(lockName)}: ${problem}`);
        this.lockName = lockName;
        this.problem = problem;
    }
}
//# sourceMappingURL=invalid-lock-name.error.js.map