import { ZkLockError } from './zk-lock.error.js';
/**
 * A znode under the module's root could not be given the configured ACL: another client changed
 * its ACL first (in the moment between the create and the setAcl), or this session lacks the
 * identity the ACL names. The library deletes such a node rather than use it.
 */
export class AclNotAppliedError extends ZkLockError {
    constructor(znodePath, problem, options) {
        super('ZK_ACL_NOT_APPLIED', `Could not protect ${znodePath} with the configured ACL: ${problem}`, options);
        this.znodePath = znodePath;
        this.problem = problem;
    }
}
//# sourceMappingURL=acl-not-applied.error.js.map