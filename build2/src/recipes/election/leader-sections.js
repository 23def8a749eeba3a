import { AsyncLocalStorage } from 'node:async_hooks';
const frames = new AsyncLocalStorage();
/**
 * When the leader sections of one election run (used by `LeaderWork`):
 *
 * - **One at a time per tenure.** Sections of one tenure share its token and the one ready record,
 *   so each waits for the one before it: two of them would fail each other's versioned writes.
 * - **A new tenure does not wait for an old one.** A tenure's sections are told to stop (signal)
 *   when it ends; one that ignores that must not wedge the next leadership, so each tenure has a
 *   lane of its own. A stuck old section cannot write the record any more once its signal aborted
 *   (see `SectionOwner.signal`), and `strand` lets the first section of the new lane repair what
 *   the old one left before it starts.
 * - **Nested calls join.** Leader work of the same election started from inside a section (a
 *   `@LeaderOnly` method calling another, `runAsLeader` within `runAsLeader`, in the same async
 *   call chain) runs inside that section, on the same `LeaderSection`: no second ready-state
 *   entry, no queueing behind itself. The same holds inside a take-over's recovery handler (see
 *   `enclose`). A section ends (completes, or is marked interrupted) only after every call that
 *   joined it has ended, so nothing runs as part of a section after it ended; a continuation that
 *   outlives its section (a timer set inside it) finds it ended and starts a section of its own.
 *
 * `S` is the section handle that nested calls receive (`LeaderSection`).
 */
export class LeaderSections {
    /** `strand`: called when a new tenure's lane opens while sections of `earlier` still run. */
    constructor(strand = () => undefined) {
        this.strand = strand;
        this.running = new Set();
    }
    /** No section is running or waiting to run. */
    get idle() {
        return this.running.size === 0;
    }
    /** The current async call chain runs inside a section (or recovery) of this election. */
    get inSection() {
        return this.frame() !== undefined;
    }
    /**
     * Runs `fn` as part of the section the current call chain runs in, if any: undefined when there
     * is none. Rejects with the tenure's abort reason once the enclosing tenure ended.
     */
    join(fn) {
        const frame = this.frame();
        if (!frame)
            return undefined;
        const { signal } = frame.tenure;
        const call = signal.aborted ? Promise.reject(signal.reason) : (async () => fn(frame.section))();
        frame.joined.add(call);
        const forget = () => frame.joined.delete(call);
        call.then(forget, forget);
        return call;
    }
    /**
     * Queues a section of `tenure` behind the earlier ones of the same tenure; `open` enters the
     * ready state, calls `body` with the section and completes it. Undefined if the tenure ended
     * while waiting in line.
     */
    schedule(tenure, open, fn) {
        const lane = this.laneOf(tenure);
        const previous = lane.tail;
        let release;
        lane.tail = new Promise((resolve) => (release = resolve));
        lane.pending++;
        const job = previous.then(async () => {
            try {
                if (tenure.signal.aborted)
                    return undefined; // the tenure ended while waiting in line
                return await open((section) => this.enclose(tenure, section, () => fn(section)));
            }
            finally {
                lane.pending--;
                release();
            }
        });
        this.running.add(job);
        const forget = () => this.running.delete(job);
        void job.then(forget, forget);
        return job;
    }
    /**
     * Runs `fn` with `section` as the section that nested leader work joins (a section's body, or a
     * take-over's recovery handler), and waits for every call that joined it before it resolves.
     */
    async enclose(tenure, section, fn) {
        const frame = { owner: this, tenure, section, parent: frames.getStore(), joined: new Set(), open: true };
        try {
            return await frames.run(frame, fn);
        }
        finally {
            while (frame.joined.size > 0)
                await Promise.allSettled([...frame.joined]);
            frame.open = false;
        }
    }
    /**
     * Waits (at most `timeoutMs`) for running sections to finish. True when none is left. Sections
     * still running then are given up on (their tenure's signal aborts as the caller hands over):
     * later drains and `idle` no longer wait for them, or one stuck section would delay every
     * later hand-over by the whole timeout.
     */
    async drain(timeoutMs) {
        if (this.running.size === 0)
            return true;
        let timer;
        const timedOut = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)));
        await Promise.race([Promise.allSettled([...this.running]), timedOut]);
        clearTimeout(timer);
        const drained = this.running.size === 0;
        this.running.clear();
        return drained;
    }
    laneOf(tenure) {
        const current = this.lane;
        if (current?.tenure === tenure)
            return current;
        if (current && current.pending > 0)
            this.strand(current.tenure);
        return (this.lane = { tenure, tail: Promise.resolve(), pending: 0 });
    }
    /** The innermost frame of this election in the current call chain, while it is open. */
    frame() {
        for (let frame = frames.getStore(); frame; frame = frame.parent) {
            // Frames of this election were made by `enclose` with its own section type.
            if (frame.owner === this)
                return frame.open ? frame : undefined;
        }
        return undefined;
    }
}
//# sourceMappingURL=leader-sections.js.map