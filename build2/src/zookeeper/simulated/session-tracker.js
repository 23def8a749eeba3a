import { SIM_ACTOR } from './sim-scheduler.js';
/**
 * The leader's session tracker (ZooKeeper's `SessionTrackerImpl` with its `ExpiryQueue`): session
 * ids that carry the id of the server that made them in their top byte, and expiry on the first
 * tick after a session's timeout passed without traffic. A leaderless ensemble expires nothing,
 * and a new leader gives every session a fresh timeout.
 */
export class SessionTracker {
    constructor(scheduler, tickMs, 
    /** Whether a quorum (so a leader) is up. */
    hasQuorum, 
    /** The tracker found `record` timed out: end it (a closeSession transaction). */
    expire) {
        this.scheduler = scheduler;
        this.tickMs = tickMs;
        this.hasQuorum = hasQuorum;
        this.expire = expire;
        this.records = new Map();
        this.counter = 0n;
        this.tick();
    }
    get(id) {
        return this.records.get(id);
    }
    /** A new client session, made by server `serverId`. */
    open(serverId, timeoutMs) {
        const id = (BigInt(serverId) << 56n) | (0x5e550000n + ++this.counter);
        const record = { id, password: this.scheduler.random.uuid().replaceAll('-', ''), timeoutMs, expiresAt: 0, owner: undefined, ended: false };
        this.records.set(id, record);
        return record;
    }
    /** A session that never expires (see `SimulatedEnsemble.operatorSession`). */
    openOperator(serverId) {
        const id = (BigInt(serverId) << 56n) | (0x0be00000n + ++this.counter);
        const record = { id, password: '', timeoutMs: Infinity, expiresAt: Infinity, owner: undefined, ended: false };
        this.records.set(id, record);
        return record;
    }
    /** The session was heard from: its deadline moves to the tick after its timeout from now. */
    touch(record) {
        // ZooKeeper's ExpiryQueue: the deadline rounded up to the next tick.
        record.expiresAt = (Math.floor((this.scheduler.now + record.timeoutMs) / this.tickMs) + 1) * this.tickMs;
    }
    /** Sessions the server considers alive. */
    live() {
        return [...this.records.values()].filter((r) => !r.ended);
    }
    /** Forgets every session (a restart with an empty data directory). */
    clear() {
        this.records.clear();
    }
    tick() {
        this.scheduler.schedule(this.tickMs, () => {
            this.tick();
            if (!this.hasQuorum()) {
                for (const record of this.records.values())
                    this.touch(record);
                return;
            }
            for (const record of this.records.values())
                if (!record.ended && record.expiresAt <= this.scheduler.now)
                    this.expire(record);
        }, 'session tick', SIM_ACTOR);
    }
}
//# sourceMappingURL=session-tracker.js.map