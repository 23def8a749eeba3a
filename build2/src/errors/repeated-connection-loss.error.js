import { ZkLockError } from './zk-lock.error.js';
/**
 * A request failed with connection loss on every one of `attempts` consecutive tries, each on a
 * connection that was up when it was sent: it is given up rather than sent again after every
 * reconnect. A request the server drops the connection for (one over `jute.maxbuffer`, say) would
 * otherwise be re-sent forever, and every resend costs the session its connection.
 */
export class RepeatedConnectionLossError extends ZkLockError {
    constructor(path, attempts, cause) {
        super('ZK_REPEATED_CONNECTION_LOSS', `Gave up writing ${path}: the connection was lost on each of ${attempts} consecutive attempts (the server may be dropping the connection for this request, e.g. a record over jute.maxbuffer)`, { cause });
        this.path = path;
        this.attempts = attempts;
    }
}
//# sourceMappingURL=repeated-connection-loss.error.js.map