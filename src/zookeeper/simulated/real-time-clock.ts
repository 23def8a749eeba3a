import { performance } from 'node:perf_hooks';
// The timers module's own functions, not the globals: a test's fake timers (Jest, Vitest, Sinon
// replace the globals) do not stop the simulated server under it.
import { clearImmediate, clearTimeout, setImmediate, setTimeout } from 'node:timers';
import type { SimClock } from './sim-clock.js';
import { SimRandom } from './sim-random.js';
import type { SimEvent } from './sim-clock.js';

export interface RealTimeClockOptions {
  /** The actor of what runs outside the clock's events (the process's own code). */
  readonly actor: string;
  /** Seed of `random`. Default 1. */
  readonly seed?: number;
  /**
   * Labels of events that re-arm themselves for as long as the ensemble lives (a server's tick,
   * a client's ping): they never keep the process alive. Every other event does until it ran.
   */
  readonly background?: readonly string[];
}

interface PendingEvent extends SimEvent {
  timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
}

/**
 * The process's monotonic clock, taken at load: a simulation's virtual runtime, installed for a
 * while in the same process (the conformance suite runs the simulator beside a dev server),
 * replaces `performance.now` and must not move this clock.
 */
const processNow = performance.now.bind(performance);

/** Lets the microtasks and the immediates queued so far run (one turn of the event loop). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

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
export class RealTimeClock implements SimClock {
  readonly random: SimRandom;
  tracer: ((line: string) => void) | undefined;
  private readonly origin = processNow();
  /** How far `advance` has moved the clock ahead of real time. */
  private skipped = 0;
  private seq = 0;
  private running: string;
  private readonly pending = new Set<PendingEvent>();
  private readonly crashed = new Set<string>();
  private readonly background: ReadonlySet<string>;
  /** One `advance` at a time: the next starts where the last ended. */
  private advancing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: RealTimeClockOptions) {
    this.random = new SimRandom(options.seed ?? 1);
    this.running = options.actor;
    this.background = new Set(options.background);
  }

  get now(): number {
    return processNow() - this.origin + this.skipped;
  }

  get actor(): string {
    return this.running;
  }

  /** Runs `fn` as `actor`: a handle it creates belongs to `actor` (see `SimulatedHandle`). */
  as<T>(actor: string, fn: () => T): T {
    const previous = this.running;
    this.running = actor;
    try {
      return fn();
    } finally {
      this.running = previous;
    }
  }

  schedule(delayMs: number, run: () => void, label = 'timer', actor = this.running): SimEvent {
    const delay = Math.max(0, delayMs);
    const time = this.now + delay;
    const event: PendingEvent = { time, due: time, seq: ++this.seq, actor, label, run, cancelled: false, timer: undefined };
    if (this.stopped || this.crashed.has(actor)) {
      event.cancelled = true;
      return event;
    }
    this.pending.add(event);
    this.arm(event, delay);
    return event;
  }

  cancel(event: SimEvent | undefined): void {
    if (!event) return;
    event.cancelled = true;
    this.disarm(event as PendingEvent);
  }

  note(text: string, actor = this.running): void {
    this.tracer?.(`${(this.now / 1000).toFixed(3).padStart(9)}s ${actor.padEnd(6)} ${text}`);
  }

  crash(actor: string): void {
    this.crashed.add(actor);
    for (const event of [...this.pending]) if (event.actor === actor) this.cancel(event);
  }

  /**
   * Moves the clock `ms` ahead and runs every event due by then, in (time, order) order, each
   * once the clock reached its time and the work the previous one started (microtasks,
   * immediates) has run. Resolves once the last has; later events are re-armed on the new time.
   */
  advance(ms: number): Promise<void> {
    const advanced = this.advancing.then(() => this.skip(ms));
    this.advancing = advanced.catch(() => undefined);
    return advanced;
  }

  /** Drops every pending event: nothing runs any more, nothing keeps the process alive. Final. */
  stop(): void {
    this.stopped = true;
    for (const event of [...this.pending]) this.cancel(event);
  }

  private async skip(ms: number): Promise<void> {
    const target = this.now + Math.max(0, ms);
    for (let next = this.earliest(target); next; next = this.earliest(target)) {
      if (next.time > this.now) this.skipped += next.time - this.now;
      this.fire(next);
      await turn();
    }
    if (target > this.now) this.skipped += target - this.now;
    for (const event of this.pending) this.arm(event, event.time - this.now);
  }

  private earliest(until: number): PendingEvent | undefined {
    let first: PendingEvent | undefined;
    for (const event of this.pending) {
      if (event.time <= until && (!first || event.time < first.time || (event.time === first.time && event.seq < first.seq))) first = event;
    }
    return first;
  }

  private fire(event: PendingEvent): void {
    if (!this.pending.has(event)) return; // cancelled, or run by `advance` already
    this.disarm(event);
    this.running = event.actor;
    try {
      event.run();
    } finally {
      this.running = this.options.actor;
    }
  }

  private arm(event: PendingEvent, delayMs: number): void {
    clearTimer(event.timer);
    const fire = () => this.fire(event);
    const timer = delayMs > 0 ? setTimeout(fire, delayMs) : setImmediate(fire);
    if (this.background.has(event.label)) timer.unref();
    event.timer = timer;
  }

  private disarm(event: PendingEvent): void {
    this.pending.delete(event);
    clearTimer(event.timer);
    event.timer = undefined;
  }
}

function clearTimer(timer: NodeJS.Timeout | NodeJS.Immediate | undefined): void {
  if (timer === undefined) return;
  if ('refresh' in timer) clearTimeout(timer);
  else clearImmediate(timer);
}
