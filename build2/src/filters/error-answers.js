import { ConnectTimeoutError } from '../errors/connect-timeout.error.js';
import { ElectionClosedError } from '../errors/election-closed.error.js';
import { InvalidLockNameError } from '../errors/invalid-lock-name.error.js';
import { LeadershipLostError } from '../errors/leadership-lost.error.js';
import { LockBusyError } from '../errors/lock-busy.error.js';
import { LockLostError } from '../errors/lock-lost.error.js';
import { LockTimeoutError } from '../errors/lock-timeout.error.js';
import { ReleaseRequestedError } from '../errors/release-requested.error.js';
import { RepeatedConnectionLossError } from '../errors/repeated-connection-loss.error.js';
import { SessionClosedError } from '../errors/session-closed.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { ZooKeeperUnreachableError } from '../errors/zookeeper-unreachable.error.js';
/**
 * The status of each error, for a request that met it:
 * - 400: the request named a lock that cannot exist (`InvalidLockNameError`);
 * - 409: the lock is held and the call was told not to wait (`LockBusyError`);
 * - 503, with `Retry-After`: the answer may differ later: the lock was not granted in time, this
 *   process stopped leading, or ZooKeeper cannot be reached (`ZooKeeperUnreachableError` for a
 *   try-once; or the lock was lost with it), or
 *   the call gave its lock up because another process asked for it (`ReleaseRequestedError`);
 * - 500: anything else, which a retry will not mend (a corrupt state, a failed recovery, a misuse).
 */
export function httpAnswerOf(error) {
    if (error instanceof InvalidLockNameError)
        return { status: 400, retryable: false };
    if (error instanceof LockBusyError)
        return { status: 409, retryable: false };
    if (isTransient(error))
        return { status: 503, retryable: true };
    return { status: 500, retryable: false };
}
function isTransient(error) {
    return (error instanceof LockTimeoutError ||
        error instanceof LeadershipLostError ||
        error instanceof ElectionClosedError ||
        error instanceof LockLostError ||
        error instanceof ReleaseRequestedError ||
        error instanceof ConnectTimeoutError ||
        error instanceof RepeatedConnectionLossError ||
        error instanceof SessionClosedError ||
        error instanceof ZooKeeperUnreachableError ||
        ZooKeeperError.isRetryable(error));
}
/** The reason phrase of each status the filter sends, as Nest's own error bodies name it. */
export const REASON_PHRASES = {
    400: 'Bad Request',
    409: 'Conflict',
    500: 'Internal Server Error',
    503: 'Service Unavailable',
};
//# sourceMappingURL=error-answers.js.map