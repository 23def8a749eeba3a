import { performance } from 'node:perf_hooks';
// The timers module's own functions, not the globals: a test's fake timers (Jest, Vitest, Sinon
// replace the globals) do not stop the simulated server under it.
import { clearImmediate, clearTimeout, setImmediate, setTimeout } from 'node:timers';
import { SimRandom } from './sim-random.js';
/** Lets the microtasks and the immediates queued so far run (one turn of the event loop). */
const turn = () => new Promise((resolve) => setImmediate(resolve));
/**
 * A `SimClock` on the process's own event loop, for a `SimulatedEnsemble` that serves a unit test
 * without taking over the process's globals (`installVirtualRuntime` does that for simulations):
 * an event runs on a timer of its own when real time reaches it, a zero delay on the next turn
 * (`setImmediate`), so the process's microtasks run between two events as between two replies
 * of a real server. Events of `background` labels are unref'd: an ensemble nobody closed keeps
 * no process alive.
 *
 * `advance(ms)` moves the clock ahead of real time: what is due by then runs at once, in order,
 * each event at its own time. Only the clock moves: the process's timers and `performance.now()`
 * do not.
 */
export class RealTimeClock {
    constructor(options) {
        this.options = options;
        this.origin = performance.now();
        /** How far `advance` has moved the clock ahead of real time. */
        this.skipped = 0;
        this.seq = 0;
        this.pending = new Set();
        this.crashed = new Set();
        /** One `advance` at a time: the next starts where the last ended. */
        this.advancing = Promise.resolve();
        this.stopped = false;
        this.random = new SimRandom(options.seed ?? 1);
        this.running = options.actor;
        this.background = new Set(options.background);
    }
    get now() {
        return performance.now() - this.origin + this.skipped;
    }
    get actor() {
        return this.running;
    }
    /** Runs `fn` as `actor`: a handle it creates belongs to `actor` (see `SimulatedHandle`). */
    as(actor, fn) {
        const previous = this.running;
        this.running = actor;
        try {
            return fn();
        }
        finally {
            this.running = previous;
        }
    }
    schedule(delayMs, run, label = 'timer', actor = this.running) {
        const delay = Math.max(0, delayMs);
        const time = this.now + delay;
        const event = { time, due: time, seq: ++this.seq, actor, label, run, cancelled: false, timer: undefined };
        if (this.stopped || this.crashed.has(actor)) {
            event.cancelled = true;
            return event;
        }
        this.pending.add(event);
        this.arm(event, delay);
        return event;
    }
    cancel(event) {
        if (!event)
            return;
        event.cancelled = true;
        this.disarm(event);
    }
    note(text, actor = this.running) {
        this.tracer?.(`${(this.now / 1000).toFixed(3).padStart(9)}s ${actor.padEnd(6)} ${text}`);
    }
    crash(actor) {
        this.crashed.add(actor);
        for (const event of [...this.pending])
            if (event.actor === actor)
                this.cancel(event);
    }
    /**
     * Moves the clock `ms` ahead and runs every event due by then, in (time, order) order, each
     * once the clock reached its time and the work the previous one started (microtasks,
     * immediates) has run. Resolves once the last has; later events are re-armed on the new time.
     */
    advance(ms) {
        const advanced = this.advancing.then(() => this.skip(ms));
        this.advancing = advanced.catch(() => undefined);
        return advanced;
    }
    /** Drops every pending event: nothing runs any more, nothing keeps the process alive. Final. */
    stop() {
        this.stopped = true;
        for (const event of [...this.pending])
            this.cancel(event);
    }
    async skip(ms) {
        const target = this.now + Math.max(0, ms);
        for (let next = this.earliest(target); next; next = this.earliest(target)) {
            if (next.time > this.now)
                this.skipped += next.time - this.now;
            this.fire(next);
            await turn();
        }
        if (target > this.now)
            this.skipped += target - this.now;
        for (const event of this.pending)
            this.arm(event, event.time - this.now);
    }
    earliest(until) {
        let first;
        for (const event of this.pending) {
            if (event.time <= until && (!first || event.time < first.time || (event.time === first.time && event.seq < first.seq)))
                first = event;
        }
        return first;
    }
    fire(event) {
        if (!this.pending.has(event))
            return; // cancelled, or run by `advance` already
        this.disarm(event);
        this.running = event.actor;
        try {
            event.run();
        }
        finally {
            this.running = this.options.actor;
        }
    }
    arm(event, delayMs) {
        clearTimer(event.timer);
        const fire = () => this.fire(event);
        const timer = delayMs > 0 ? setTimeout(fire, delayMs) : setImmediate(fire);
        if (this.background.has(event.label))
            timer.unref();
        event.timer = timer;
    }
    disarm(event) {
        this.pending.delete(event);
        clearTimer(event.timer);
        event.timer = undefined;
    }
}
function clearTimer(timer) {
    if (timer === undefined)
        return;
    if ('refresh' in timer)
        clearTimeout(timer);
    else
        clearImmediate(timer);
}
//# sourceMappingURL=real-time-clock.js.map