import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { pause } from '../backoff.js';
import { isReleaseRequested } from '../queue/release-request.js';
/** A short pause before reading again, so that a request the server keeps refusing (SESSIONMOVED) is not a tight loop. */
const RETRY_MS = 100;
/**
 * Watches a held lease's own node for a release request (see `release-request.ts`) and calls
 * `requested` once, when one is there: one `getData` with a watch. A mark made before it is in the
 * reply's version; one made after fires the watch (`changed`). A deletion (the lease released, or
 * lost with its session) means nothing here. The C client keeps the watch through reconnections of
 * the session; a read that failed with the connection set none, so it is sent again once the
 * session is back, as long as the lease is held on it.
 *
 * Armed only on the first read of `Lease.releaseRequested`: a holder that never asks has no watch.
 * The watch stays on the server until the node changes or is deleted (the release fires it once).
 */
export function watchReleaseRequest(session, lease, requested) {
    const wanted = () => !lease.signal.aborted && session.sessionId === lease.sessionId;
    const arm = () => {
        if (!wanted())
            return;
        session
            .getData(lease.path, (event) => {
            if (event.type === 'changed')
                requested();
        })
            .then(({ stat }) => {
            if (isReleaseRequested(stat))
                requested();
        }, (error) => {
            // NONODE: released or lost meanwhile. Connection trouble: read (and watch) again once back.
            if (!ZooKeeperError.isRetryable(error))
                return;
            void pause(RETRY_MS, lease.signal).then((waited) => {
                if (waited)
                    session.waitForConnection(lease.signal).then(arm, () => undefined);
            });
        });
    };
    arm();
}
//# sourceMappingURL=release-watch.js.map