import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isSessionOwned } from './queue-node.js';
/**
 * Waits for any change of the queue (`QueuePlace` `'queue'`: a semaphore's first waiter, whom
 * whichever holder leaves first may grant). Such a waiter reads none of the nodes ahead, so a
 * persistent look-alike among them (made by hand: it never leaves) would keep its permits for
 * good. So after a session timeout without a change, the nodes ahead (`ahead`, paths) are read
 * once and look-alikes are left out from then on (`Waiter.foreign`, the rule a predecessor's read
 * applies: `isSessionOwned`). Costs nothing while the queue moves; the caller lists again after.
 */
export async function waitForQueueChange(session, watch, sessionId, control, waiter, ahead) {
    let quiet = false;
    const timer = setTimeout(() => {
        quiet = true;
        waiter.wake?.();
    }, session.sessionTimeoutMs);
    try {
        await watch.wait(session, sessionId, control, waiter);
    }
    finally {
        clearTimeout(timer);
    }
    if (!quiet)
        return;
    for (const path of ahead) {
        try {
            const stat = await session.exists(path);
            if (stat && !isSessionOwned(stat.ephemeralOwner))
                waiter.foreign(path);
        }
        catch (error) {
            // The connection dropped: the caller looks at the queue again, and this check comes back
            // after the next quiet timeout.
            if (ZooKeeperError.isRetryable(error))
                return;
            throw error;
        }
    }
}
//# sourceMappingURL=queue-change.js.map