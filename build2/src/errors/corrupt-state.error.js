import { ZkLockError } from './zk-lock.error.js';
/** The ready znode holds something that is not a record this library wrote. */
export class CorruptStateError extends ZkLockError {
    constructor(statePath, problem) {
        super('ZK_CORRUPT_STATE', `Ready state at ${statePath} is unreadable: ${problem}`);
        this.statePath = statePath;
        this.problem = problem;
    }
}
//# sourceMappingURL=corrupt-state.error.js.map