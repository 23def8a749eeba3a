import { LockLostError } from '../errors/lock-lost.error.js';
import type { QueueEntry } from './fair-queue.js';

/**
 * Proof of holding a lock, from the grant until `release()`.
 *
 * - `fencingToken` strictly increases over the grants of one lock: pass it to the storage you
 *   write to and have it refuse tokens older than the newest it has seen.
 * - `signal` aborts (with `LockLostError`) as soon as the lease may no longer be exclusive: the
 *   session expired, or was disconnected (or this process paused) long enough that the server
 *   may have expired it, or was closed. That happens before the server can grant the lock to
 *   anyone else. Stop the work; the node is deleted for you once the session is reachable.
 */
export class Lease {
  readonly fencingToken: bigint;
  readonly path: string;
  readonly sessionId: string;
  private readonly controller = new AbortController();
  private released: Promise<void> | undefined;

  constructor(
    readonly name: string,
    entry: QueueEntry,
    private readonly remove: (lease: Lease) => Promise<void>,
    /** The session's synchronous doubt (`ZkSessionClient.mayHaveExpired`). */
    private readonly sessionInDoubt: () => boolean = () => false,
    /** Told once, right after `signal` aborted (observability). */
    private readonly onLost?: (lease: Lease, error: LockLostError) => void,
  ) {
    this.fencingToken = entry.token;
    this.path = entry.path;
    this.sessionId = entry.sessionId;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Granted, not released, and not (possibly) lost. Also false at once when the session is in
   * doubt before `signal` could abort: right after this process resumed from a pause.
   */
  get isHeld(): boolean {
    return this.released === undefined && !this.controller.signal.aborted && !this.sessionInDoubt();
  }

  /** Throws `LockLostError` when the lease is no longer held. For checks between steps of long work. */
  assertHeld(): void {
    if (this.controller.signal.aborted) throw this.controller.signal.reason;
    if (this.released) throw new LockLostError(this.path, 'already released');
    if (this.sessionInDoubt()) throw new LockLostError(this.path, 'the session may have expired (this process was paused or disconnected)');
  }

  /**
   * Gives the lock to the next in line. Idempotent. Resolves once our node is deleted, or at
   * once when the lease was lost (the deletion then completes in the background when the
   * session is reachable again, or the server removes the node with the expired session).
   */
  release(): Promise<void> {
    if (!this.released) {
      const removal = this.remove(this);
      const lost = this.controller.signal.aborted || this.sessionInDoubt();
      this.released = lost ? (removal.catch(() => undefined), Promise.resolve()) : removal;
    }
    return this.released;
  }

  /** Called by the registry when the session may be gone. */
  markLost(reason: string): void {
    if (this.released || this.controller.signal.aborted) return;
    const error = new LockLostError(this.path, reason);
    this.controller.abort(error);
    this.onLost?.(this, error);
  }
}
