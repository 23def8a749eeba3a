import { performance } from 'node:perf_hooks';

/**
 * Notices that this process did not run for a while (SIGSTOP, a long GC, a blocked event loop)
 * while it led. Nothing can be reported during such a stall, and afterwards timers fire in due
 * order, so application code can run before any session event says the session is in doubt:
 * `isStalled()` lets a synchronous check refuse leadership at once, and `onStall` fires from the
 * first tick after the stall.
 *
 * The limit is how long the session is surely alive after the loop last ran: the C client drops
 * a connection after 2/3 of the timeout without a reply, so while it reported the connection up
 * the server had heard from us within that window; the server may expire the session one third of
 * the timeout later, minus a safety margin for timer lateness.
 */
export class StallDetector {
  private ticker: NodeJS.Timeout | undefined;
  private lastTick = 0;

  constructor(
    private readonly limitMs: () => number,
    private readonly onStall: () => void,
  ) {}

  start(): void {
    if (this.ticker) return;
    this.lastTick = performance.now();
    const limit = this.limitMs();
    this.ticker = setInterval(() => this.tick(), Math.min(250, Math.max(20, limit / 5)));
    this.ticker.unref();
  }

  stop(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  /** True when the loop has not run for longer than the limit (checked at the time of the call). */
  isStalled(): boolean {
    return this.ticker !== undefined && performance.now() - this.lastTick > this.limitMs();
  }

  private tick(): void {
    const stalled = this.isStalled();
    this.lastTick = performance.now();
    if (stalled) this.onStall();
  }
}
