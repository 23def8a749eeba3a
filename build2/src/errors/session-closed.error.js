import { ZkLockError } from './zk-lock.error.js';
/**
 * The session was closed by its owner (application shutdown); no further requests are possible.
 * `path` is the znode the refused request was for, when it was for one.
 */
export class SessionClosedError extends ZkLockError {
    constructor(operation, path) {
        super('ZK_SESSION_CLOSED', `Cannot ${operation}${path === undefined ? '' : ` ${path}`}: the ZooKeeper session has been closed`);
        this.operation = operation;
        this.path = path;
    }
}
//# sourceMappingURL=session-closed.error.js.map