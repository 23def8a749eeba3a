import { performance } from 'node:perf_hooks';

export type SessionLossReason = 'disconnected' | 'paused';

/** What the clock reads, and whom it tells. */
export interface SessionLossSources {
  /** The session timeout the server granted (the requested one before the first connection). */
  timeoutMs(): number;
  /** Send time of the latest request the server answered, or start of the attempt that connected. */
  lastContactAt(): number;
  /** When the latest reply or watch event arrived (anything but a ping's reply, which is invisible). */
  lastReceiptAt(): number;
  /** The server may have expired the session by now. */
  onLost(reason: SessionLossReason): void;
  /** A stall was seen while connected, short of putting the session in doubt yet: send a request whose answer proves contact. */
  onStall?(): void;
}

/**
 * Tells, from the client side alone, the moment after which the server may have expired the
 * session, so that holders are told before the server can grant their locks to someone else.
 *
 * The server expires a session `timeout` after it last heard from it. Our lower bound for that
 * last contact is the best of:
 * - the send time of the latest request the server answered, or the start of the connection
 *   attempt that connected (`lastContactAt`: the handshake was sent after it), and
 * - `aliveAt - 2/3 timeout`: the C client declares the connection dead after 2/3 of the timeout
 *   without hearing from the server, so while it still reported the connection up at `aliveAt`
 *   it had heard from the server within that window (its pings are invisible through the
 *   package, hence this bound). What it heard proves the server heard us only if it was a ping's
 *   reply; when a reply to an older request or a watch event may have been the last thing heard
 *   (`lastReceiptAt`), the ping before it, at most a third of the timeout earlier, is the bound.
 * The second bound only holds while the event loop runs: when this process was paused (SIGSTOP,
 * a long GC, a blocked loop) the C client could not notice anything. A ticker detects such stalls
 * and falls back to the last moment the loop was seen running. A stall also spoils the evidence
 * for a while after it: on resume the ticker may run before the C client had its first look at
 * the connection, and what the C client reads right after a stall may have waited in the socket
 * since before it (fresh-looking, but sent while the server still heard from us). So for a whole
 * timeout after a stall, unless a request sent after it was answered, the stall still dates the
 * last contact (`unprovenStall`).
 *
 * The deadline is `lastContact + timeout - margin`; the margin absorbs timer lateness.
 */
export class SessionLossClock {
  private ticker: NodeJS.Timeout | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private lastTick = 0;
  private connectedNow = false;
  /** While suspended: when the server may have expired the session. */
  private deadline: number | undefined;
  /** `onLost` has fired since the last connection. */
  private lost = false;
  /**
   * A stall the ticker saw while connected, whose deadline had not passed: `at` the loop's last
   * run before it, `seenAt` its end. Nothing shows yet that the server heard from us since.
   */
  private unprovenStall: { at: number; seenAt: number } | undefined;

  private readonly timeoutMs: () => number;
  private readonly lastContactAt: () => number;
  private readonly lastReceiptAt: () => number;
  private readonly onLost: (reason: SessionLossReason) => void;
  private readonly onStall: (() => void) | undefined;

  constructor(sources: SessionLossSources) {
    ({ timeoutMs: this.timeoutMs, lastContactAt: this.lastContactAt, lastReceiptAt: this.lastReceiptAt, onLost: this.onLost, onStall: this.onStall } = sources);
  }

  /** The connection is up: no deadline runs; keep watching for stalls of the event loop. */
  connected(): void {
    this.connectedNow = true;
    this.lost = false;
    this.unprovenStall = undefined; // a (re)connection is the C client running after any stall
    this.deadline = undefined;
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
    this.startTicker();
  }

  /**
   * Whether, right now, the server may have expired the session: after `onLost`, past the
   * deadline while suspended, or while connected when the event loop has not run for so long
   * (a pause the ticker has not even seen yet) that the C client's pings may have stopped.
   * Synchronous, so that code resuming after a SIGSTOP can be refused before any timer runs.
   */
  mayHaveExpired(now = performance.now()): boolean {
    if (this.lost) return true;
    if (this.deadline !== undefined) return now >= this.deadline;
    if (!this.connectedNow || this.ticker === undefined) return false;
    return this.deadlineFrom(Math.min(this.lastTick, this.stallBound(now) ?? Infinity)) <= now;
  }

  /** The connection dropped now: arm the deadline. */
  suspended(): void {
    this.connectedNow = false;
    const now = performance.now();
    const aliveAt = Math.min(this.stalledSince(now) ?? now, this.stallBound(now) ?? now);
    this.arm(this.deadlineFrom(aliveAt), now, 'disconnected');
  }

  stop(): void {
    this.connectedNow = false;
    this.unprovenStall = undefined;
    this.deadline = undefined;
    clearTimeout(this.deadlineTimer);
    clearInterval(this.ticker);
    this.deadlineTimer = this.ticker = undefined;
  }

  /** Monotonic ms by which the server may have expired the session, had the connection died at `aliveAt`. */
  private deadlineFrom(aliveAt: number): number {
    const timeout = this.timeoutMs();
    // The C client's last receipt, at least 2/3 of the timeout before `aliveAt`, was a ping's reply,
    // which proves the server heard the ping; unless it may have been a reply to an older request
    // or a watch event, which prove nothing of the kind: the ping before it, at most a third of
    // the timeout earlier (the C client pings after a third of the timeout without sending), does.
    // (Within a margin: the C client stamps its receipt a little before our callback sees it.)
    const margin = safetyMarginMs(timeout);
    let heard = aliveAt - (2 * timeout) / 3;
    const receipt = this.lastReceiptAt();
    if (receipt >= heard - margin) heard = Math.min(heard, receipt - timeout / 3);
    return Math.max(this.lastContactAt(), heard) + timeout - margin;
  }

  private arm(deadline: number, now: number, reason: SessionLossReason): void {
    clearTimeout(this.deadlineTimer);
    this.deadline = deadline;
    if (deadline <= now) {
      this.deadlineTimer = undefined;
      this.fireLost(reason);
      return;
    }
    this.deadlineTimer = setTimeout(() => {
      this.deadlineTimer = undefined;
      this.fireLost(reason);
    }, deadline - now);
  }

  private fireLost(reason: SessionLossReason): void {
    this.lost = true;
    this.onLost(reason);
  }

  /**
   * Half the safety margin: a stall longer than the margin then delays some tick by more than
   * half of it (`stalledSince`), so none that the margin does not absorb goes unseen. (A tick of a
   * sixth of the timeout let stalls of up to a quarter of it hide between two ticks.)
   */
  private tickIntervalMs(): number {
    return Math.max(10, safetyMarginMs(this.timeoutMs()) / 2);
  }

  /** The start of a stall whose end is less than a timeout ago, with no proof of contact since (see `unprovenStall`). */
  private stallBound(now: number): number | undefined {
    const stall = this.unprovenStall;
    if (!stall) return undefined;
    // A request sent once the stall was over (at or after `seenAt`) and answered proves contact.
    if (now - stall.seenAt >= this.timeoutMs() || this.lastContactAt() >= stall.seenAt) {
      this.unprovenStall = undefined;
      return undefined;
    }
    return stall.at;
  }

  /**
   * After a stall whose deadline has not passed yet: tells `onLost('paused')` at that deadline
   * unless something proved contact since (the signal must abort before the server can expire the
   * session, not only when the C client gets round to reporting the connection dead). A live
   * session then comes back through the supervisor's probe.
   */
  private watchStall(now: number): void {
    const at = this.stallBound(now);
    if (at === undefined) return;
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = setTimeout(() => {
      this.deadlineTimer = undefined;
      if (!this.connectedNow || this.stallBound(performance.now()) === undefined) return;
      this.connectedNow = false;
      this.fireLost('paused');
    }, Math.max(0, this.deadlineFrom(at) - now));
  }

  /** The last time the loop was seen running, when a tick came more than half a margin late since. */
  private stalledSince(now: number): number | undefined {
    const late = now - this.lastTick - this.tickIntervalMs();
    return this.ticker && late > safetyMarginMs(this.timeoutMs()) / 2 ? this.lastTick : undefined;
  }

  private startTicker(): void {
    if (this.ticker) return;
    this.lastTick = performance.now();
    this.ticker = setInterval(() => {
      const now = performance.now();
      const stalledAt = this.stalledSince(now);
      this.lastTick = now;
      // Paused while the C client believed it was connected: it could not send pings meanwhile.
      if (stalledAt !== undefined && this.connectedNow) {
        if (this.deadlineFrom(stalledAt) <= now) {
          this.connectedNow = false;
          this.fireLost('paused');
        } else {
          this.unprovenStall = { at: Math.min(stalledAt, this.unprovenStall?.at ?? Infinity), seenAt: now };
          this.watchStall(now);
          // The C client's pings are invisible: ask for a reply that proves contact after the stall.
          this.onStall?.();
        }
      }
    }, this.tickIntervalMs());
    this.ticker.unref();
  }
}

/** 5 % of the timeout, at least 20 ms and at most 1 s. */
export function safetyMarginMs(timeoutMs: number): number {
  return Math.min(1000, Math.max(20, timeoutMs * 0.05));
}
