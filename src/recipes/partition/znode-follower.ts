import type { Subscription } from 'rxjs';
import { SessionClosedError } from '../../errors/session-closed.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { Watcher } from '../../zookeeper/types.js';
import { backoffDelay, pause } from '../backoff.js';

/** Where a follower reports a read that failed for a reason other than the connection. */
export interface FollowerLogger {
  warn(message: string): void;
}

/**
 * Keeps a view of some znodes current: `look(watcher)` reads them, leaving one-shot watches that
 * call `watcher`; every firing, and every new session (whose watches the old one took along), runs
 * `look` again. Looks never overlap: a change during a look runs one more after it. A look that
 * fails waits for the connection (or backs off) and tries again, until `stop()`.
 */
export class ZnodeFollower {
  private running = false;
  private looking = false;
  private again = false;
  private failures = 0;
  private states: Subscription | undefined;
  /** Aborted by `stop()`; a new one for each `start()` (an assigner stops and starts with its leadership). */
  private stopped = new AbortController();
  /** One watcher for every look: the client keeps one entry per path and watcher, so watches on nodes that never change do not pile up. */
  private readonly watcher: Watcher = () => this.poke();

  constructor(
    private readonly session: ZkSessionClient,
    private readonly what: string,
    private readonly look: (watcher: Watcher) => Promise<void>,
    private readonly logger: FollowerLogger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopped = new AbortController();
    // A replaced session lost our watches with it: look again on it. (A reconnection of the same session keeps them.)
    let sessionId = this.session.sessionId;
    this.states = this.session.state$.subscribe((change) => {
      if (change.state === 'connected' && change.sessionId !== sessionId) {
        sessionId = change.sessionId;
        this.poke();
      }
    });
    this.poke();
  }

  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.states?.unsubscribe();
    this.stopped.abort();
  }

  /** Looks again now (or right after the look in progress). */
  poke(): void {
    if (!this.running) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.look(this.watcher);
        this.failures = 0;
      } catch (error) {
        this.again = true;
        if (!(await this.waitAfter(error))) break;
      }
    } while (this.again && this.running);
    this.looking = false;
    // Stopped and started again while a failed look waited: the new start's look is still owed.
    if (this.again && this.running) this.poke();
  }

  /** After a failed look: the connection back, or a back-off for anything else. False once stopped. */
  private async waitAfter(error: unknown): Promise<boolean> {
    this.failures += 1;
    if (!this.running) return false;
    // Closed for good: nothing will answer again.
    if (error instanceof SessionClosedError) {
      this.stop();
      return false;
    }
    if (error instanceof ZooKeeperError && (error.isConnectionError || error.isSessionGone)) {
      try {
        await this.session.waitForConnection(this.stopped.signal);
        return this.running;
      } catch {
        return false; // closed, or stopped
      }
    }
    this.logger.warn(`Reading ${this.what} failed (retrying): ${error instanceof Error ? error.message : String(error)}`);
    return (await pause(backoffDelay(this.failures), this.stopped.signal)) && this.running;
  }
}
