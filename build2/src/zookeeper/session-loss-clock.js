import { performance } from 'node:perf_hooks';
/**
 * Tells, from the client side alone, the moment after which the ZooKeeper leader may have expired
 * the session, so that holders are told before the leader can grant their locks to someone else.
 *
 * The leader expires a session a timeout after it last touched it, and `lastContactAt` is a lower
 * bound for that touch that only replies routed through the leader move (`LeaderContact` says
 * which, and why a follower's answers do not count). So the deadline is
 * `lastContactAt + timeout - margin`, whether the connection is up or not: a server cut off from
 * the leader keeps a connection up and answers pings while the leader expires us. The margin
 * absorbs timer lateness. The bound is made of send times, so a pause of this process cannot
 * make it look fresher: a reply read late after a SIGSTOP still dates from before it, and
 * `mayHaveExpired` reads the bound synchronously, before any timer had a chance to run.
 */
export class SessionLossClock {
    constructor(sources) {
        this.running = false;
        this.connectedNow = false;
        /**
         * `pending`: someone was told the session may have expired (`mayHaveExpired`), and the deadline
         * timer is to announce it; `announced`: `onLost` fired, and no proof or new connection has
         * answered it yet. Once anyone acted on the doubt it is announced, whatever proof arrives
         * meanwhile: a lease ended for it must be followed by a published `lost`, never by silence.
         */
        this.loss = 'none';
        this.sources = sources;
    }
    /** The connection is up (its handshake proved contact): watch the deadline. */
    connected() {
        this.running = true;
        this.connectedNow = true;
        if (this.loss === 'announced')
            this.loss = 'none';
        this.watchDeadline();
    }
    /** The connection dropped: the deadline runs on from the last proof, as it did while connected. */
    suspended() {
        this.connectedNow = false;
        this.watchDeadline();
    }
    /**
     * A leader-routed reply may have moved the proof: if the session was counted lost while the
     * connection stayed up and the deadline is in the future again, say so (`onConfirmed`).
     */
    proofArrived() {
        if (!this.running || this.loss !== 'announced' || !this.connectedNow || this.expiredAt(performance.now()))
            return;
        this.loss = 'none';
        this.watchDeadline();
        this.sources.onConfirmed();
    }
    /**
     * Whether, right now, the leader may have expired the session: after `onLost`, or once the
     * deadline passed although no timer has said so yet (code resuming after a SIGSTOP); the loss is
     * then announced right after. Synchronous, so that such code can be refused before any timer runs.
     */
    mayHaveExpired(now = performance.now()) {
        if (this.loss !== 'none')
            return true;
        if (!this.running || !this.expiredAt(now))
            return false;
        // The deadline timer is due (or about to be): it announces. No timer is set here, so that a
        // read sets nothing in motion on the reader's behalf.
        this.loss = 'pending';
        return true;
    }
    stop() {
        this.running = this.connectedNow = false;
        this.loss = 'none';
        clearTimeout(this.timer);
        this.timer = undefined;
    }
    /** Monotonic ms by which the leader may have expired the session. */
    deadline() {
        const timeout = this.sources.timeoutMs();
        return this.sources.lastContactAt() + timeout - safetyMarginMs(timeout);
    }
    expiredAt(now) {
        return now >= this.deadline();
    }
    announce() {
        this.loss = 'announced';
        this.sources.onLost(this.connectedNow ? 'unconfirmed' : 'disconnected');
    }
    /**
     * One timer at the deadline, running whenever the clock does until the loss is announced; when
     * it fires early (the proof moved on) it is set again, and it announces a loss that is due or
     * that someone already acted on (`pending`). Never announces synchronously: a caller that just
     * reported a connection must get to publish it first, or the loss would be announced in the
     * state it replaces (`mayHaveExpired` says it at once).
     */
    watchDeadline() {
        clearTimeout(this.timer);
        this.timer = undefined;
        if (!this.running || this.loss === 'announced')
            return;
        const delay = this.loss === 'pending' ? 0 : Math.max(0, this.deadline() - performance.now());
        this.timer = setTimeout(() => {
            this.timer = undefined;
            if (!this.running || this.loss === 'announced')
                return;
            if (this.loss === 'pending' || this.expiredAt(performance.now()))
                this.announce();
            else
                this.watchDeadline();
        }, delay);
        this.timer.unref();
    }
}
/** 5 % of the timeout, at least 20 ms and at most 1 s. */
export function safetyMarginMs(timeoutMs) {
    return Math.min(1000, Math.max(20, timeoutMs * 0.05));
}
//# sourceMappingURL=session-loss-clock.js.map