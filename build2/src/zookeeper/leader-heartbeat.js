import { performance } from 'node:perf_hooks';
/**
 * Keeps the proof of the leader's contact fresh (`LeaderContact`): a session that sent nothing
 * through the leader for a sixth of its timeout sends a `sync`. Pings and reads are answered by
 * whichever server we talk to, so without this an idle session would count as lost although
 * nothing is wrong. Writes count as beats, so a busy session sends none. A sixth leaves the
 * deadline a third of the timeout beyond the next beat's expected answer (less the margin):
 * the proof of one beat dates from the beat half a timeout earlier, and a beat's own answer must
 * arrive before the proof it renews runs out.
 */
export class LeaderHeartbeat {
    constructor(sources) {
        this.sources = sources;
    }
    /** Looks a sixth of the timeout from now, then beats whenever nothing went through the leader for that long. Idempotent. */
    start() {
        if (this.timer === undefined)
            this.schedule(this.sources.timeoutMs() / 6);
    }
    stop() {
        clearTimeout(this.timer);
        this.timer = undefined;
    }
    schedule(delayMs) {
        this.timer = setTimeout(() => {
            const every = this.sources.timeoutMs() / 6;
            let next = this.sources.lastLeaderRequestAt() + every - performance.now();
            if (next <= 0) {
                this.sources.beat();
                next = every; // also when the beat could not be sent: no tight loop
            }
            this.schedule(next);
        }, delayMs);
        this.timer.unref();
    }
}
//# sourceMappingURL=leader-heartbeat.js.map