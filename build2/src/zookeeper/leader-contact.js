/** The requests a follower forwards to the leader; everything else it answers itself. */
const LEADER_ROUTED = new Set(['create', 'delete', 'setData', 'setAcl', 'sync']);
export function routeOf(operation) {
    return LEADER_ROUTED.has(operation) ? 'leader' : 'local';
}
/** At most this many send times are kept; dropping the oldest only makes a proof older. */
const MAX_SENDS = 64;
/**
 * The latest moment at which the leader is proven to have touched our session (`provenAt`,
 * monotonic ms), from the replies of one session's requests as described above.
 */
export class LeaderContact {
    constructor(touchSlackMs) {
        this.touchSlackMs = touchSlackMs;
        this.proven = 0;
        /**
         * Send times on the current connection, ascending, at most one per eighth of the slack: a proof
         * picks the latest one a slack before the request it answers, which thinning can only make older.
         */
        this.sends = [];
        this.lastLeaderSend = Number.NEGATIVE_INFINITY;
    }
    /** Monotonic ms: the leader touched the session at this time or later. 0 before any proof. */
    get provenAt() {
        return this.proven;
    }
    /** When the latest request through the leader was sent (monotonic ms). */
    get lastLeaderSendAt() {
        return this.lastLeaderSend;
    }
    /**
     * A handshake begun at `attemptAt` connected: the leader touched the session after that. Touches
     * made on an earlier connection travelled another server's link, which later replies do not vouch for.
     */
    connected(attemptAt) {
        this.proven = Math.max(this.proven, attemptAt);
        this.sends.length = 0;
    }
    sent(route, at) {
        if (route === 'leader')
            this.lastLeaderSend = Math.max(this.lastLeaderSend, at);
        const last = this.sends[this.sends.length - 1];
        if (last !== undefined && at - last < this.touchSlackMs() / 8)
            return;
        if (this.sends.length === MAX_SENDS)
            this.sends.shift();
        this.sends.push(at);
    }
    /** A request through the leader sent at `sentAt` got an answer (not a connection-level failure). */
    answered(sentAt) {
        const bound = sentAt - this.touchSlackMs();
        let touched;
        while (this.sends.length > 0 && this.sends[0] <= bound)
            touched = this.sends.shift();
        // Keep the one found: a later proof may need it again (it is the latest old enough so far).
        if (touched !== undefined) {
            this.sends.unshift(touched);
            this.proven = Math.max(this.proven, touched);
        }
    }
}
/** Half the session timeout: see `LeaderContact`. */
export function touchSlackMs(sessionTimeoutMs) {
    return sessionTimeoutMs / 2;
}
//# sourceMappingURL=leader-contact.js.map