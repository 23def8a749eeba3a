import { AsyncLocalStorage } from 'node:async_hooks';

/** What a leader section knows of the leadership it runs under. */
export interface LeaderTenure {
  /** The leader's fencing token (its queue node's `czxid`): strictly increases over leaders. */
  readonly token: bigint;
  /** Aborts as soon as this process stops reporting leadership. */
  readonly signal: AbortSignal;
}

/**
 * A section (or a take-over's recovery) in progress, as the async call chain below it sees it:
 * leader work of the same election called from there runs as part of it.
 */
interface Frame<S> {
  /** The `LeaderSections` (one per election) whose frame this is. */
  readonly owner: object;
  readonly tenure: LeaderTenure;
  readonly section: S;
  /** The frame of another election this one runs inside, if any. */
  readonly parent: Frame<unknown> | undefined;
  /** Calls that joined this frame and have not ended: the frame ends only after them. */
  readonly joined: Set<Promise<unknown>>;
  open: boolean;
}

/** The sections of one tenure, in line: each waits for the one before it. */
interface Lane {
  readonly tenure: LeaderTenure;
  tail: Promise<void>;
  /** Sections queued or running in this lane. */
  pending: number;
}

const frames = new AsyncLocalStorage<Frame<unknown>>();

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
export class LeaderSections<S> {
  private lane: Lane | undefined;
  private readonly running = new Set<Promise<unknown>>();

  /** `strand`: called when a new tenure's lane opens while sections of `earlier` still run. */
  constructor(private readonly strand: (earlier: LeaderTenure) => void = () => undefined) {}

  /** No section is running or waiting to run. */
  get idle(): boolean {
    return this.running.size === 0;
  }

  /** The current async call chain runs inside a section (or recovery) of this election. */
  get inSection(): boolean {
    return this.frame() !== undefined;
  }

  /**
   * Runs `fn` as part of the section the current call chain runs in, if any: undefined when there
   * is none. Rejects with the tenure's abort reason once the enclosing tenure ended.
   */
  join<T>(fn: (section: S) => T | Promise<T>): Promise<T> | undefined {
    const frame = this.frame();
    if (!frame) return undefined;
    const { signal } = frame.tenure;
    const call = signal.aborted ? Promise.reject(signal.reason as Error) : (async () => fn(frame.section))();
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
  schedule<T>(tenure: LeaderTenure, open: (body: (section: S) => Promise<T>) => Promise<T>, fn: (section: S) => T | Promise<T>): Promise<T | undefined> {
    const lane = this.laneOf(tenure);
    const previous = lane.tail;
    let release!: () => void;
    lane.tail = new Promise<void>((resolve) => (release = resolve));
    lane.pending++;
    const job = previous.then(async () => {
      try {
        if (tenure.signal.aborted) return undefined; // the tenure ended while waiting in line
        return await open((section) => this.enclose(tenure, section, () => fn(section)));
      } finally {
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
  async enclose<T>(tenure: LeaderTenure, section: S, fn: () => T | Promise<T>): Promise<T> {
    const frame: Frame<S> = { owner: this, tenure, section, parent: frames.getStore(), joined: new Set(), open: true };
    try {
      return await frames.run(frame, fn);
    } finally {
      while (frame.joined.size > 0) await Promise.allSettled([...frame.joined]);
      frame.open = false;
    }
  }

  /**
   * Waits (at most `timeoutMs`) for running sections to finish. True when none is left. Sections
   * still running then are given up on (their tenure's signal aborts as the caller hands over):
   * later drains and `idle` no longer wait for them, or one stuck section would delay every
   * later hand-over by the whole timeout.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    if (this.running.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.allSettled([...this.running]), timedOut]);
    clearTimeout(timer);
    const drained = this.running.size === 0;
    this.running.clear();
    return drained;
  }

  private laneOf(tenure: LeaderTenure): Lane {
    const current = this.lane;
    if (current?.tenure === tenure) return current;
    if (current && current.pending > 0) this.strand(current.tenure);
    return (this.lane = { tenure, tail: Promise.resolve(), pending: 0 });
  }

  /** The innermost frame of this election in the current call chain, while it is open. */
  private frame(): Frame<S> | undefined {
    for (let frame = frames.getStore(); frame; frame = frame.parent) {
      // Frames of this election were made by `enclose` with its own section type.
      if (frame.owner === this) return frame.open ? (frame as Frame<S>) : undefined;
    }
    return undefined;
  }
}
