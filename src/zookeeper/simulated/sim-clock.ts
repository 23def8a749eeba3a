import type { SimRandom } from './sim-random.js';

/** One pending step of a simulation: a timer of a process, a packet arriving, a server's tick. */
export interface SimEvent {
  /** When it runs: when it came due, or when its actor's pause ends. */
  time: number;
  /** When it came due: a paused actor's events run, when it resumes, in this order. */
  readonly due: number;
  readonly seq: number;
  readonly actor: string;
  readonly label: string;
  readonly run: () => void;
  cancelled: boolean;
}

/**
 * The time and chance a `SimulatedEnsemble` and its `SimulatedHandle`s run on: all they ask of a
 * clock. `SimScheduler` is one (a virtual clock that jumps from event to event, for deterministic
 * simulations); `RealTimeClock` is another (events on the process's own timers, for unit tests
 * that cannot take over the process's globals).
 */
export interface SimClock {
  /** Ms since the clock started. */
  readonly now: number;
  /** The actor whose step runs now: a handle created now belongs to it. */
  readonly actor: string;
  /** Every choice of the ensemble (latencies, passwords, listing order) comes from it. */
  readonly random: SimRandom;
  /** Set: every `note` goes to it. */
  readonly tracer: ((line: string) => void) | undefined;
  /** Runs `run` `delayMs` from now as `actor`'s step (default: the current actor's). */
  schedule(delayMs: number, run: () => void, label?: string, actor?: string): SimEvent;
  cancel(event: SimEvent | undefined): void;
  /** A line of the trace, if one is kept. */
  note(text: string, actor?: string): void;
  /** `actor` never takes another step. */
  crash(actor: string): void;
}
