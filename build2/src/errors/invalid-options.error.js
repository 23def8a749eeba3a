import { ZkLockError } from './zk-lock.error.js';
/** A module or call option is missing or malformed; `field` names it (e.g. `sessionTimeoutMs`). */
export class InvalidOptionsError extends ZkLockError {
    constructor(field, problem) {
        super('ZK_INVALID_OPTIONS', `Invalid nestjs-zk-lock option "${field}": ${problem}`);
        this.field = field;
        this.problem = problem;
    }
}
//# sourceMappingURL=invalid-options.error.js.map