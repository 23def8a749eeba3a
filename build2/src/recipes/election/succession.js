import { isReleaseRequested } from '../queue/release-request.js';
import { electionToken } from '../fencing.js';
/**
 * The election's queue driver: direct succession. A waiter whose predecessor was the head at its
 * last look is granted the moment that node is deleted, without listing again: nothing can queue
 * ahead of it (sequence numbers only grow). Meanwhile it keeps what the take-over reads fresh
 * under a watch (`SuccessionReads.standby`), so the grant needs no round trip.
 *
 * Why that is sound: ZooKeeper delivers one session's notifications in order. A watch on our own
 * node (one `exists` per node, which also reads its czxid, the token) would have told us of its
 * deletion before the predecessor's; the standing read's re-read after the leader's last write was
 * sent before the deletion reached us. After a disconnection the server fires the watches of
 * everything that changed meanwhile in no order, so the queue grants this way only on a deletion
 * that arrived with no disconnection since the wait began.
 *
 * One per `join`; after the grant, the watch on our node goes on serving the term (`ownNodeWatch`).
 */
export class Succession {
    constructor(session, reads) {
        this.session = session;
        this.reads = reads;
    }
    /** The token is our node's czxid: a succession grant has no listing whose `pzxid` could serve. */
    grantToken() {
        return electionToken(this.node.czxid);
    }
    prefetch() {
        return this.reads.prefetch();
    }
    /** Reads our node's stat and leaves a watch on it, unless one stands; false if it is gone or not ours. */
    checkOwnNode(mine, wake) {
        if (this.node?.own === mine && this.node.watched)
            return undefined;
        const node = (this.node = { own: mine, watched: false });
        const read = this.session.exists(mine.path, (event) => {
            node.watched = false;
            const heir = node.heir;
            if (!heir)
                return wake(); // a change of our node ends the wait: the next look checks it again
            if (heir.watcher)
                heir.watcher(event);
            else
                heir.fired = event;
        });
        const owned = read.then((stat) => {
            if (stat?.ephemeralOwner !== mine.sessionId)
                return false; // gone, or (made by hand) not ours
            node.czxid = stat.czxid;
            node.version = stat.version;
            node.watched = true;
            return true;
        });
        owned.catch(() => undefined); // awaited by the look that sent it, unless the listing failed first
        return owned;
    }
    /** Behind the head: the standing read, and a grant on its in-order departure if our watch still stands. */
    standBy(mine) {
        const read = this.reads.standby();
        return {
            stop: () => read.stop(),
            grant: () => {
                const node = this.node;
                if (node?.own !== mine || !node.watched || this.session.sessionId !== mine.sessionId)
                    return undefined;
                return { token: this.grantToken(), prefetched: read.current() };
            },
        };
    }
    /**
     * Called once granted: the watch on our node, if it still stands, for the term to take instead
     * of setting one of its own (an election's grant then costs no request).
     */
    ownNodeWatch() {
        const node = this.node;
        if (!node?.watched)
            return undefined;
        const heir = (node.heir = {});
        return {
            stepDownRequested: isReleaseRequested({ version: node.version ?? 0 }),
            take(watcher) {
                const fired = heir.fired;
                if (fired)
                    queueMicrotask(() => watcher(fired));
                else
                    heir.watcher = watcher;
            },
        };
    }
}
//# sourceMappingURL=succession.js.map