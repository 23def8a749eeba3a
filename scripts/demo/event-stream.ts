/**
 * Every replica's event lines (see examples/app/events.ts), merged in arrival order, with
 * event-driven waits: `next()` resolves on the first matching event, already seen or still to come.
 */
export interface DemoEvent {
  /** Epoch ms, the same clock in every process of this machine. */
  readonly t: number;
  readonly replica: string;
  readonly ev: string;
  readonly [field: string]: unknown;
}

interface Waiter {
  readonly match: (event: DemoEvent) => boolean;
  readonly resolve: (event: DemoEvent) => void;
}

export class EventStream {
  readonly events: DemoEvent[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly listeners = new Set<(event: DemoEvent) => void>();

  push(event: DemoEvent): void {
    this.events.push(event);
    for (const waiter of [...this.waiters]) {
      if (!waiter.match(event)) continue;
      this.waiters.delete(waiter);
      waiter.resolve(event);
    }
    for (const listener of this.listeners) listener(event);
  }

  /** Calls `listener` on every event from now on; returns a function that stops it. */
  subscribe(listener: (event: DemoEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events named `ev` (of `replica`, matching `where`), in arrival order. */
  all(ev: string, where: (event: DemoEvent) => boolean = () => true): DemoEvent[] {
    return this.events.filter((event) => event.ev === ev && where(event));
  }

  /** The first event named `ev` matching `where` at index >= `from` (default: from now on). */
  next(ev: string, where: (event: DemoEvent) => boolean, { from = this.events.length, timeoutMs, what }: { from?: number; timeoutMs: number; what: string }): Promise<DemoEvent> {
    const match = (event: DemoEvent) => event.ev === ev && where(event);
    const seen = this.events.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<DemoEvent>((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }
}
