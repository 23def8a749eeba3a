import { hasSessionEnded } from '../../zookeeper/session-state.js';
/** Why a lease of a session that ended (`hasSessionEnded`) is lost, by the state that ended it. */
const LOSS_REASONS = {
    lost: 'the session may have expired (the leader has not confirmed it in time: disconnected, cut off, or this process was paused)',
    expired: 'the session expired',
    closed: 'the session was closed',
    connected: 'the session was replaced',
};
/**
 * The leases held through one session. One subscription to the session state tells all of
 * them when they may be lost, and then frees their nodes: a lost lease is never regained, and
 * a node left behind would block the queue for as long as the session lives.
 */
export class LeaseRegistry {
    constructor(session) {
        this.leases = new Set();
        this.subscription = session.state$.subscribe((change) => this.onStateChange(change));
    }
    get size() {
        return this.leases.size;
    }
    /** The leases currently held, in grant order. */
    list() {
        return [...this.leases];
    }
    add(lease) {
        this.leases.add(lease);
    }
    delete(lease) {
        this.leases.delete(lease);
    }
    dispose() {
        this.subscription.unsubscribe();
    }
    onStateChange(change) {
        if (this.leases.size === 0)
            return;
        for (const lease of [...this.leases]) {
            if (!hasSessionEnded(change, lease.sessionId))
                continue;
            lease.markLost(LOSS_REASONS[change.state]);
            void lease.release();
        }
    }
}
//# sourceMappingURL=lease-registry.js.map