/** After the last `api/state` call, the view stays live this long: a poller is served it, not a reading of the root. */
export const API_HOLD_MS = 60_000;

/**
 * Who is looking at the dashboard: its open pages, and `api/state` callers until `API_HOLD_MS`
 * after the last call. While anyone is, the view is live: `start` read everything and set the
 * watches once, and every viewer waits for that one reading (`ready`) instead of reading again.
 * Why `api/state` callers count: the dashboard reads through the application's session, whose
 * requests ZooKeeper executes in order, so a reading of the whole root per call would queue ahead
 * of the locks' deletes and grants, and a hand-over would wait for the pollers. Served the live
 * view, polling reads nothing; only changes are read.
 */
export class Viewers {
  private count = 0;
  /** The reading that set the watches (the view is live once it is done), while anyone views. */
  private live: Promise<void> | undefined;
  private apiHold: NodeJS.Timeout | undefined;

  constructor(
    private readonly start: () => Promise<void>,
    /** The last viewer left: drop what only viewers need (the root watch). */
    private readonly stop: () => void = () => undefined,
  ) {}

  /** Whether anyone views: watches are set and changes read only then. */
  get any(): boolean {
    return this.count > 0;
  }

  /** Resolves once the view is live: at once if it is, after the reading that makes it live if not. */
  ready(): Promise<void> {
    return this.live ?? this.restart();
  }

  /** A page opened (`leave` when it closes). */
  enter(): void {
    this.count += 1;
  }

  leave(): void {
    if (--this.count > 0) return;
    this.live = undefined; // one-shot watches still standing fire once more, unheeded
    this.stop();
  }

  /** An `api/state` call: one viewer until `API_HOLD_MS` after the last. */
  holdForApi(): void {
    if (this.apiHold === undefined) this.enter();
    else clearTimeout(this.apiHold);
    this.apiHold = setTimeout(() => {
      this.apiHold = undefined;
      this.leave();
    }, API_HOLD_MS);
    this.apiHold.unref();
  }

  /** Reads everything and sets the watches again (a new session holds none); a reading that fails is forgotten, so the next viewer reads again. */
  restart(): Promise<void> {
    const live = this.start();
    this.live = live;
    live.catch(() => {
      if (this.live === live) this.live = undefined;
    });
    return live;
  }

  close(): void {
    clearTimeout(this.apiHold);
  }
}
