import { ZkLockError } from './zk-lock.error.js';
/**
 * The semaphore is in use with another permit count than this caller's: every user of one
 * semaphore must agree on it, or the limit means nothing. `recorded` is what its current holders
 * were granted under (each holder's lease node records it), `requested` what this caller asked for.
 */
export class SemaphorePermitsMismatchError extends ZkLockError {
    constructor(semaphorePath, recorded, requested) {
        super('ZK_SEMAPHORE_PERMITS_MISMATCH', `Semaphore ${semaphorePath} is held under ${recorded} permits, but this caller asked for ${requested}: ` +
            'every user of one semaphore must give the same permits (fix the configuration of one side).');
        this.semaphorePath = semaphorePath;
        this.recorded = recorded;
        this.requested = requested;
    }
}
//# sourceMappingURL=semaphore-permits-mismatch.error.js.map