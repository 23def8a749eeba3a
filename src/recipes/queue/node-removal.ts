import { QueueNodeNotRemovedError } from '../../errors/queue-node-not-removed.error.js';
import { SessionClosedError } from '../../errors/session-closed.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { hasSessionEnded, isConnectedState } from '../../zookeeper/session-state.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { backoffDelay, pause } from '../backoff.js';

/** Whoever is told of a failure that no caller is waiting for any more (a delete in the background). */
export interface QueueLogger {
  warn(message: string): void;
}

const WARN_BY_PROCESS: QueueLogger = { warn: (message) => process.emitWarning(message, 'ZkLockWarning') };

/**
 * One try at deleting our queue node `path`: resolves once it is gone, rejects as `ZkClient.delete`
 * does. `mayHaveLanded`: an earlier try ended with the connection, so it may have been applied.
 */
export type NodeDeletion = (path: string, mayHaveLanded: boolean) => Promise<void>;

/** A delete failure after which our node is gone: it was, or its session is. */
function isGoneWithNode(error: unknown): boolean {
  return ZooKeeperError.is(error, 'NONODE') || error instanceof SessionClosedError || (error instanceof ZooKeeperError && error.isSessionGone);
}

/** A delete failure that the same request can get past later: the connection, or the server asking us to slow down. */
function isWorthRetrying(error: unknown): error is ZooKeeperError {
  return error instanceof ZooKeeperError && (error.isConnectionError || error.zkCode === 'THROTTLEDOP');
}


/**
 * Removes queue nodes of ours (`FairQueue.leave`), bounded by the life of the session that made
 * them (DESIGN invariant 10): release and shutdown never wait for an unreachable ensemble longer
 * than that session could live, and no node of a session that may still live is forgotten.
 */
export class NodeRemoval {
  constructor(
    private readonly session: ZkSessionClient,
    /** Told of a delete that failed in the background, after `leave` had resolved. */
    private readonly logger: QueueLogger = WARN_BY_PROCESS,
  ) {}

  /**
   * Deletes our node `path`, made by session `sessionId`, which hands over whatever it stood for.
   * Resolves once the node is gone, or once that session can no longer be counted on (`lost`,
   * `expired`, `closed`, or replaced by a new one): an ephemeral node dies with its session, and
   * release and shutdown must not wait for an unreachable ensemble longer than the session could
   * live. The delete then goes on in the background for as long as the session may live, so a
   * `lost` session that comes back (`reconnected`) still deletes its node. Connection errors
   * (including SESSIONMOVED) are retried on the same session and THROTTLEDOP after a short
   * back-off; they never reject. A code no retry can fix (NOAUTH) rejects with
   * `QueueNodeNotRemovedError` (or, once resolved, is logged). `deletion` is how each try deletes
   * it (a guarded section's end sends its completion with it: `CompletingRelease`).
   */
  leave(path: string, sessionId: string, deletion: NodeDeletion = this.plainDelete): Promise<void> {
    // The first delete too, sent while the connection looks up: the connection may have died
    // silently, and the C client gives it up only 2/3 of the timeout after it last heard anything
    // (possibly a watch event that waited through a stall), while the session can count as lost
    // before that (test/lock/release-after-stall.test.ts).
    return this.whileSessionLives(this.deleteThroughOutages(path, sessionId, deletion), sessionId);
  }

  private readonly plainDelete: NodeDeletion = (path) => this.session.delete(path, -1);

  /**
   * One delete of our node. Resolves undefined once the node is gone (deleted now, or earlier, or
   * with its session), else with the error worth another try; rejects with
   * `QueueNodeNotRemovedError` on a code that no retry fixes.
   */
  private async deleteOnce(path: string, deletion: NodeDeletion, mayHaveLanded: boolean): Promise<ZooKeeperError | undefined> {
    try {
      await deletion(path, mayHaveLanded);
      return undefined;
    } catch (error) {
      if (isGoneWithNode(error)) return undefined;
      if (isWorthRetrying(error)) return error;
      throw new QueueNodeNotRemovedError(path, error);
    }
  }

  /** Retries the delete of `path` for as long as its session may live. */
  private async deleteThroughOutages(path: string, sessionId: string, deletion: NodeDeletion): Promise<void> {
    for (let throttled = 0, mayHaveLanded = false; ; ) {
      try {
        await this.session.waitForConnection();
      } catch (error) {
        if (error instanceof SessionClosedError) return; // closing the session removed the node
        throw error;
      }
      if (this.session.sessionId !== sessionId) return; // replaced: the node died with its session
      const error = await this.deleteOnce(path, deletion, mayHaveLanded);
      if (error === undefined) return;
      if (error.isConnectionError) mayHaveLanded = true; // a THROTTLEDOP was not applied
      // Throttled: the server asks us to slow down. A connection error that the state does not
      // show yet: give the state change a moment to land rather than spinning.
      const throttle = error.zkCode === 'THROTTLEDOP';
      if (throttle || isConnectedState(this.session.state)) await pause(throttle ? backoffDelay(++throttled, 50, 2000) : 20);
    }
  }

  /** `removal`, or until session `sessionId` ends (see `hasSessionEnded`); a later failure of `removal` is logged. */
  private whileSessionLives(removal: Promise<void>, sessionId: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let subscription: { unsubscribe(): void } | undefined;
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        subscription?.unsubscribe();
        if (error === undefined) resolve();
        else reject(error);
      };
      removal.then(
        () => finish(),
        (error: unknown) => (settled ? this.report(error) : finish(error)),
      );
      // state$ replays the current state synchronously, so `finish` may run inside subscribe().
      subscription = this.session.state$.subscribe({
        next: (change) => hasSessionEnded(change, sessionId) && finish(),
        complete: () => finish(),
      });
      if (settled) subscription.unsubscribe();
    });
  }

  /** A failure that no caller waits for any more: never dropped silently. */
  report(error: unknown): void {
    this.logger.warn(error instanceof Error ? error.message : String(error));
  }
}
