import { LockAbortedError } from '../../errors/lock-aborted.error.js';
import { LockTimeoutError } from '../../errors/lock-timeout.error.js';
/** How a wait that did not end in a grant is reported. */
export function waitFailed(name, path, waitMs, error) {
    if (error instanceof LockTimeoutError)
        return { type: 'lock.timeout', name, path, waitMs };
    if (error instanceof LockAbortedError)
        return { type: 'lock.aborted', name, path, waitMs, reason: error.cause };
    return { type: 'lock.failed', name, path, waitMs, error };
}
//# sourceMappingURL=lock-events.js.map