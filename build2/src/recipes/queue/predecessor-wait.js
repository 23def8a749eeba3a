import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import { isSessionOwned } from './queue-node.js';
import { SessionWait } from './session-wait.js';
/**
 * Waits until `path` is deleted or changed (one-shot data watch), our session changes, our own
 * node's watch fires, or `control` stops; with `mark`, also at once if the node already carries a
 * mark newer than `mark.version` (a grant made after our listing but before the watch was set: the
 * watch fires for no change made before it). `mark` is updated with what this wait saw, so a mark
 * wakes its waiter once: a node marked by hand costs one more look, never a loop; and a grant is
 * heeded however the previous wait ended (a failed read, a reconnection), as long as it is newer.
 * Resolves true only when the watch reported the deletion in order: with no disconnection meanwhile. (On reconnection the server fires the watches whose
 * nodes changed while we were away all at once, in no particular order: the deletion of our own
 * node, or a change of what a standby watches, may then come after the predecessor's.)
 * `getData` rather than `exists`: on a node that is already gone it leaves no watch behind (an
 * `exists` watch would wait forever for a creation that never comes).
 */
export function waitForDeletion(session, path, sessionId, waiter, control, mark) {
    let inOrder = true;
    // A suspended session keeps its watches (the C client re-registers them on reconnection), but
    // the server fires those whose nodes changed meanwhile all at once, in no order.
    const wait = new SessionWait(session, sessionId, false, { control, wakeable: [waiter], onState: (change) => void (isConnectedState(change.state) || (inOrder = false)) });
    if (wait.isSettled)
        return wait.done;
    session.getData(path, (event) => {
        // The node changed after this read (its reply comes before the watch's event): the listing
        // that follows this wake-up sees at least that change, so only a later mark is news. (A
        // watch of an earlier wait that fires late tells nothing about this one's read.)
        if (mark && !wait.isSettled && event.type === 'changed')
            mark.version += 1;
        wait.end(event.type === 'deleted' && inOrder);
    }).then(({ stat }) => {
        // A persistent node named like a queue node (made by hand) would never go away: waiting
        // for it would block forever. It holds nothing; skip it from now on and look again.
        if (!isSessionOwned(stat.ephemeralOwner)) {
            waiter.foreign(path);
            wait.end();
            return;
        }
        if (!mark)
            return;
        const newer = stat.version > mark.version;
        mark.version = Math.max(mark.version, stat.version);
        // Marked after our listing, before our watch was set: the watch will not fire for that.
        if (newer)
            wait.end();
    }, (error) => {
        if (ZooKeeperError.is(error, 'NONODE') || ZooKeeperError.isRetryable(error))
            wait.end();
        else
            wait.fail(error);
    });
    return wait.done;
}
//# sourceMappingURL=predecessor-wait.js.map