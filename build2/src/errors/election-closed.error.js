import { ZkLockError } from './zk-lock.error.js';
/** The election was closed (application shutdown, or `close()`): it cannot be joined again. */
export class ElectionClosedError extends ZkLockError {
    constructor(electionName) {
        super('ZK_ELECTION_CLOSED', `Election "${electionName}" has been closed (shutdown); it cannot be joined again`);
        this.electionName = electionName;
    }
}
//# sourceMappingURL=election-closed.error.js.map