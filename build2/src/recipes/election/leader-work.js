import { LeadershipLostError } from '../../errors/leadership-lost.error.js';
import { LockLostError } from '../../errors/lock-lost.error.js';
import { RecoveryFailedError } from '../../errors/recovery-failed.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { diagnosticsSink } from '../../observability/event-sink.js';
import { basenameOf } from '../../zookeeper/znode-path.js';
import { LeaderSections } from './leader-sections.js';
const noop = () => undefined;
/** One guarded section of leader work, as `runAsLeader` callbacks receive it. */
export class LeaderSection {
    constructor(tenure, section, electionPath) {
        this.tenure = tenure;
        this.section = section;
        this.electionPath = electionPath;
    }
    /** The leader's fencing token: hand it to the storage you write to, which refuses older tokens. */
    get token() {
        return this.tenure.token;
    }
    /** Aborts (with `LeadershipLostError`) when this process stops reporting leadership: stop the work. */
    get signal() {
        return this.tenure.signal;
    }
    /**
     * Records progress (any JSON value); the next leader's recovery handler receives the last one if
     * we die. Inside a take-over's recovery (leader work its handler calls) it records nothing: a
     * recovery that does not finish is run again, from the interrupted leader's own checkpoint.
     */
    async checkpoint(progress) {
        if (this.tenure.signal.aborted)
            throw this.tenure.signal.reason;
        await fenced(this.electionPath, () => this.section.checkpoint(progress));
    }
}
/**
 * The leader's side of the election's ready znode (DESIGN §5): repair and fence on take-over,
 * then run leader work as guarded sections, scheduled as `LeaderSections` says: one at a time per
 * tenure, a new tenure never behind an old one, nested calls inside the enclosing section.
 *
 * Leader work that the recovery handler calls (a `@LeaderOnly` method, `runAsLeader`) runs as part
 * of the take-over: inside the recovery, under the new leader's token and the take-over's signal,
 * with no ready-state entry of its own (the recovery's versioned write marks it all done, or a
 * failure leaves the state dirty); its checkpoints record nothing.
 */
export class LeaderWork {
    constructor(ready, electionPath, identity, logger, events = diagnosticsSink) {
        this.ready = ready;
        this.electionPath = electionPath;
        this.identity = identity;
        this.logger = logger;
        this.events = events;
        this.sections = new LeaderSections((earlier) => (this.interruptedToken = earlier.token));
        /** The take-overs still running (settled-safe): leader work too, for `idle` and `drain`. */
        this.takingOver = new Set();
    }
    get hasRecoveryHandler() {
        return this.handler !== undefined;
    }
    /** Sets the one recovery handler; returns a function that removes it. */
    setRecoveryHandler(handler) {
        this.handler = handler;
        return () => {
            if (this.handler === handler)
                this.handler = undefined;
        };
    }
    /**
     * Before a new leader reports leadership: if the predecessor left the state dirty, runs the
     * recovery handler (rejecting with `RecoveryFailedError` if it throws: the state stays dirty),
     * then writes our token into the record with a versioned write. That write marks the repair done
     * (it runs once) and fences every earlier leader: a stale leader's pending section write now
     * fails with BADVERSION, and its next section entry sees a newer token. 1 read (+1 write).
     * `tenure`: the new leader's token, and a signal that aborts when the take-over is in doubt.
     */
    takeOver(tenure, ownership, prefetched) {
        const claimed = this.claim(tenure, false, ownership, prefetched);
        const settled = claimed.then(noop, noop);
        this.takingOver.add(settled);
        void settled.then(() => this.takingOver.delete(settled));
        return claimed;
    }
    /**
     * The take-over's read of the ready znode, sent ahead: the election sends it right behind each
     * look at its queue, so the listing that makes us leader and the record we must check arrive in
     * the same round trip. A wasted read when the look does not make us leader.
     */
    prefetch() {
        const read = this.ready.read();
        read.catch(() => undefined); // the take-over awaits it, or it was not needed
        return read;
    }
    /** Nothing of this election's leader work runs or waits to run: no take-over (a recovery handler, perhaps), no section. */
    get idle() {
        return this.takingOver.size === 0 && this.sections.idle;
    }
    /** The current async call chain runs inside a section (or the take-over's recovery) of this election. */
    get inSection() {
        return this.sections.inSection;
    }
    /** Runs `fn` as part of the section (or recovery) the current call chain runs in; undefined outside one. */
    join(fn) {
        return this.sections.join(fn);
    }
    /** Runs `fn` as a guarded section under `tenure`, after any earlier section of this tenure. Undefined if the tenure ended first. */
    run(tenure, fn) {
        return this.sections.schedule(tenure, (body) => this.runSection(tenure, body), fn);
    }
    /**
     * Waits, at most `timeoutMs` in all, for the take-overs and then the sections still running. True
     * when nothing is left. A take-over counts: the successor must not start its own repair while a
     * recovery handler of ours still runs.
     */
    async drain(timeoutMs) {
        const started = performance.now();
        if (this.takingOver.size > 0) {
            let timer;
            await Promise.race([Promise.all(this.takingOver), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
            clearTimeout(timer);
            if (this.takingOver.size > 0)
                return false;
        }
        return this.sections.drain(Math.max(0, timeoutMs - (performance.now() - started)));
    }
    async runSection(tenure, fn) {
        // The tenure's signal ends the section's writes (and their retries) when leadership ends.
        const owner = { token: tenure.token, holder: this.identity, signal: tenure.signal };
        try {
            // A section of ours failed (or was stranded by an earlier tenure) under this token: repair it before new work.
            if (this.interruptedToken === tenure.token)
                await this.claim(tenure, true);
            this.interruptedToken = undefined;
            const section = await fenced(this.electionPath, () => this.ready.enter(owner, undefined));
            // Entering rides through a dropped connection; leadership may have ended meanwhile (and be
            // reported again under a new tenure): this section's work must not start then.
            if (tenure.signal.aborted)
                throw new LeadershipLostError(this.electionPath, 'leadership ended while the section was entering');
            const value = await fn(new LeaderSection(tenure, section, this.electionPath));
            // Finished, but if leadership ended meanwhile the work may have overlapped the next leader's:
            // say so, and leave the state dirty for whoever leads next.
            if (tenure.signal.aborted)
                throw new LeadershipLostError(this.electionPath, 'leadership ended while the section ran');
            await fenced(this.electionPath, () => section.complete());
            return value;
        }
        catch (error) {
            this.interruptedToken = tenure.token;
            throw error;
        }
    }
    /**
     * Reads the ready record and, unless it is already ours and clean, repairs (when dirty) and
     * writes `ready` under our token. `force`: our own token's dirty state counts as interrupted.
     * `ownership`, when given, is a check of our queue node sent just before: the read goes out
     * right behind it (one round trip for both), and nothing is repaired or written until it passed.
     * `prefetched`, when given, stands for the first read (see `prefetch`).
     */
    async claim(tenure, force, ownership, prefetched) {
        const { token } = tenure;
        const mine = token.toString();
        let recovered;
        for (let read = prefetched;; read = undefined) {
            const current = await (read ?? this.ready.read());
            await ownership;
            if (!current)
                return recovered; // no guarded section ever ran in this election
            const { record, version } = current;
            if (BigInt(record.token) > token) {
                throw new LeadershipLostError(this.electionPath, `a newer leader (token ${record.token}) owns the ready state`);
            }
            const interrupted = record.state === 'dirty' && (record.token !== mine || force);
            if (!interrupted && record.token === mine)
                return recovered;
            if (interrupted && (recovered?.token.toString() !== record.token || recovered.since !== record.since)) {
                const section = {
                    holder: record.holder,
                    token: BigInt(record.token),
                    since: record.since,
                    checkpoint: record.checkpoint,
                };
                await this.recover(section, tenure);
                recovered = section;
            }
            try {
                await this.ready.write({ v: 1, state: 'ready', token: mine, holder: this.identity, since: Date.now() }, version);
                return recovered;
            }
            catch (error) {
                // Someone wrote since our read (a stale leader finishing or checkpointing): look again.
                if (!ZooKeeperError.is(error, 'BADVERSION', 'NONODE'))
                    throw error;
            }
        }
    }
    async recover(section, tenure) {
        const { token } = tenure;
        const handler = this.handler;
        if (!handler) {
            this.logger.warn(`Leader ${section.holder} (token ${section.token}) was interrupted mid-work in ${this.electionPath} and no recovery handler is registered: marking it repaired`);
            this.reportRecovery(section, token, 'unhandled');
            return;
        }
        try {
            // Leader work the handler calls joins the recovery (see the class doc).
            const recovery = new LeaderSection(tenure, recoveryHandle(section), this.electionPath);
            await this.sections.enclose(tenure, recovery, () => handler(section, { token }));
        }
        catch (error) {
            this.reportRecovery(section, token, 'failed', { error });
            throw new RecoveryFailedError(this.ready.path, error);
        }
        this.reportRecovery(section, token, 'repaired');
    }
    reportRecovery(interrupted, token, outcome, failure) {
        if (!this.events.wants('leadership'))
            return;
        const { electionPath: path, identity } = this;
        this.events.emit('leadership', { type: 'leadership.recovery', election: basenameOf(path), path, identity, token, interrupted, outcome, ...failure });
    }
}
/** Runs a ready-state step; a lost versioned write means leadership, not a lock, was lost. */
async function fenced(electionPath, step) {
    try {
        return await step();
    }
    catch (error) {
        if (error instanceof LockLostError)
            throw new LeadershipLostError(electionPath, error.reason);
        throw error;
    }
}
/**
 * The section that leader work called by a recovery handler sees: the recovery's write marks the
 * ready state, so it has no entry or completion of its own, and checkpoints are not recorded.
 */
export function recoveryHandle(interrupted) {
    return { recovered: interrupted, checkpoint: async () => undefined, complete: async () => undefined };
}
//# sourceMappingURL=leader-work.js.map