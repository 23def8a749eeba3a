import { ZkLockError } from './zk-lock.error.js';
/**
 * Leadership ended (resigned, suspended, session lost, a newer leader took over) while a leader
 * section ran, or before it could start its work. The section's ready state stays dirty, so the
 * next leader's recovery handler repairs whatever it left half-done.
 */
export class LeadershipLostError extends ZkLockError {
    constructor(electionPath, reason) {
        super('ZK_LEADERSHIP_LOST', `Leadership of ${electionPath} was lost: ${reason}`);
        this.electionPath = electionPath;
        this.reason = reason;
    }
}
//# sourceMappingURL=leadership-lost.error.js.map