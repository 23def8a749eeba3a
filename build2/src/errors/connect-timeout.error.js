import { ZkLockError } from './zk-lock.error.js';
/**
 * No ZooKeeper server of the connect string accepted a session within the connect timeout.
 * `reason` says what reaching each server met (e.g. `127.0.0.1:2181: connection refused`), and
 * `cause` is the underlying error (an AggregateError for several servers).
 */
export class ConnectTimeoutError extends ZkLockError {
    constructor(connectString, timeoutMs, reason, options) {
        super('ZK_CONNECT_TIMEOUT', `Could not establish a ZooKeeper session with ${connectString} within ${timeoutMs} ms${reason ? `: ${reason}` : ''}`, options);
        this.connectString = connectString;
        this.timeoutMs = timeoutMs;
        this.reason = reason;
    }
}
//# sourceMappingURL=connect-timeout.error.js.map