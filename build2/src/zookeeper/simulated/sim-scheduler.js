import { setImmediate as realSetImmediate } from 'node:timers';
import { SimRandom } from './sim-random.js';
/** The simulator's own actor: servers, the network, the workload's driver. It is never paused. */
export const SIM_ACTOR = 'sim';
/**
 * The heart of a deterministic simulation: a virtual clock and one queue of events, run one at a
 * time in (time, insertion) order. Nothing sleeps: the clock jumps to the next event.
 *
 * Every event belongs to an actor (a simulated process, or `sim`). While an event runs, and while
 * the microtasks it queued drain (the loop drains them before the next event), the scheduler's
 * `actor` is that event's: a timer set from a promise continuation of process A's reply is A's.
 * JavaScript runs microtasks in a fixed order, so one seed gives one run.
 *
 * A paused actor takes no step: its events that come due wait until the pause ends, in their
 * order (a SIGSTOPped process; its timers fire late). A crashed actor's events are dropped.
 */
export class SimScheduler {
    constructor(seed) {
        this.queue = [];
        this.seq = 0;
        this.clock = 0;
        this.running = SIM_ACTOR;
        this.pausedUntil = new Map();
        this.crashed = new Set();
        /** Every pause of each actor, in the order they began: [start, end). */
        this.pauses = new Map();
        /** Events run so far. */
        this.steps = 0;
        this.random = new SimRandom(seed);
    }
    /** Virtual ms since the start of the simulation. */
    get now() {
        return this.clock;
    }
    /** The actor whose step runs now (or whose microtasks drain now). */
    get actor() {
        return this.running;
    }
    /** Queues `run` for `delayMs` from now, as `actor`'s step (default: the current actor's). */
    schedule(delayMs, run, label = 'timer', actor = this.running) {
        const time = this.clock + Math.max(0, delayMs);
        const event = { time, due: time, seq: ++this.seq, actor, label, run, cancelled: false };
        if (!this.crashed.has(actor))
            this.push(event);
        return event;
    }
    cancel(event) {
        if (event)
            event.cancelled = true;
    }
    /** `actor` takes no step for the next `ms` (a pause it is in already ends then, or later if it was to). */
    pause(actor, ms) {
        const until = Math.max(this.clock + ms, this.pausedUntil.get(actor) ?? 0);
        this.pausedUntil.set(actor, until);
        const pauses = this.pauses.get(actor) ?? [];
        pauses.push([this.clock, until]);
        this.pauses.set(actor, pauses);
    }
    /** How long `actor` was paused between `from` and `to` (virtual ms). */
    pausedWithin(actor, from, to) {
        let total = 0;
        let covered = from;
        for (const [start, end] of this.pauses.get(actor) ?? []) {
            const a = Math.max(start, covered);
            const b = Math.min(end, to);
            if (b > a) {
                total += b - a;
                covered = b;
            }
        }
        return total;
    }
    isPaused(actor) {
        return (this.pausedUntil.get(actor) ?? 0) > this.clock;
    }
    /** `actor` never takes another step. */
    crash(actor) {
        this.crashed.add(actor);
    }
    isCrashed(actor) {
        return this.crashed.has(actor);
    }
    /** Writes a line of the run's trace, stamped with the virtual time and the current actor. */
    note(text, actor = this.running) {
        this.tracer?.(`${(this.clock / 1000).toFixed(3).padStart(9)}s ${actor.padEnd(6)} ${text}`);
    }
    /**
     * Runs events until `done()` holds (checked after every step), no event is left, the clock
     * would pass `untilMs`, or `maxSteps` more steps ran. Between two steps it lets the microtasks of
     * the first drain, on the real event loop (the only real wait of a simulation), then calls
     * `afterStep` (where invariants are checked).
     */
    async run(options = {}) {
        const { done, untilMs = Infinity, maxSteps = Infinity, afterStep } = options;
        let taken = 0;
        for (;;) {
            if (done?.())
                return 'done';
            if (taken >= maxSteps)
                return 'steps';
            const event = this.next(untilMs);
            if (event === 'idle' || event === 'time') {
                if (event === 'time')
                    this.clock = Math.max(this.clock, untilMs);
                return event;
            }
            this.clock = Math.max(this.clock, event.time);
            this.running = event.actor;
            taken++;
            this.steps++;
            try {
                event.run();
            }
            catch (error) {
                // In a real process this would be an uncaught exception: say so, do not stop the run.
                (this.onUncaught ?? rethrow)(error, event);
            }
            await drainMicrotasks();
            this.running = SIM_ACTOR;
            afterStep?.();
        }
    }
    next(untilMs) {
        for (;;) {
            const event = this.queue[0];
            if (!event)
                return 'idle';
            if (event.time > untilMs)
                return 'time';
            this.pop();
            if (event.cancelled || this.crashed.has(event.actor))
                continue;
            const resumeAt = this.pausedUntil.get(event.actor);
            if (resumeAt !== undefined && resumeAt > event.time) {
                // Due while paused: runs when the pause ends, in the order it came due (see \`before\`), even
                // if the pause grew after it was first put off (a reply must not pass an older watch event).
                event.time = resumeAt;
                this.push(event);
                continue;
            }
            return event;
        }
    }
    // A binary min-heap in `before` order.
    push(event) {
        const q = this.queue;
        q.push(event);
        let i = q.length - 1;
        while (i > 0) {
            const parent = (i - 1) >> 1;
            if (!before(q[i], q[parent]))
                break;
            [q[i], q[parent]] = [q[parent], q[i]];
            i = parent;
        }
    }
    pop() {
        const q = this.queue;
        const last = q.pop();
        if (q.length === 0)
            return;
        q[0] = last;
        let i = 0;
        for (;;) {
            const left = 2 * i + 1;
            const right = left + 1;
            let least = i;
            if (left < q.length && before(q[left], q[least]))
                least = left;
            if (right < q.length && before(q[right], q[least]))
                least = right;
            if (least === i)
                return;
            [q[i], q[least]] = [q[least], q[i]];
            i = least;
        }
    }
}
function rethrow(error) {
    throw error;
}
/** Run order: by time; at one time, what came due first (a resumed actor's backlog), then FIFO. */
function before(a, b) {
    if (a.time !== b.time)
        return a.time < b.time;
    if (a.due !== b.due)
        return a.due < b.due;
    return a.seq < b.seq;
}
/** Resolves once every microtask queued so far (and those they queue) has run: after one turn of the real event loop. */
function drainMicrotasks() {
    return new Promise((resolve) => realSetImmediate(resolve));
}
//# sourceMappingURL=sim-scheduler.js.map