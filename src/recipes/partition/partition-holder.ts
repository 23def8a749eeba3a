import { LockAbortedError } from '../../errors/lock-aborted.error.js';
import { PartitionMovingError } from '../../errors/partition-moving.error.js';
import { SessionClosedError } from '../../errors/session-closed.error.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { backoffDelay, pause } from '../backoff.js';
import type { Lease } from '../lock/lease.js';
import type { LockRecipe } from '../lock/lock-client.js';
import { ReadyState, type RecoveryHandler } from '../ready/ready-state.js';

/** What a holder needs of its partition set. */
export interface HolderHost {
  readonly session: ZkSessionClient;
  readonly locks: LockRecipe;
  readonly identity: string;
  /** The set's recovery handler for this partition (a no-op that logs when none is registered). */
  recoveryFor(partition: number): RecoveryHandler;
  /** The partition became owned, or stopped being owned. */
  changed(): void;
  readonly logger: { warn(message: string): void; error(message: string): void };
}

/**
 * One partition's ownership on this replica, as one state:
 * - `idle`: neither held nor queued for;
 * - `queued`: waiting in the partition lock's queue (aborted when the partition is no longer ours);
 * - `taking-over`: granted; the partition's ready znode is being checked, and repaired if the
 *   previous owner died mid-work, before it counts as owned;
 * - `owned`: held and reported; work may start;
 * - `draining`: held, no longer reported, no new work starts; released once the running work ended.
 */
type HolderState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'queued'; readonly abort: AbortController }
  | { readonly kind: 'taking-over'; readonly lease: Lease }
  /** `moving` aborts when the drain starts: the runs' `moveRequested`. */
  | { readonly kind: 'owned' | 'draining'; readonly lease: Lease; readonly moving: AbortController };

/**
 * Keeps one partition's lock held while the assignment gives it to this replica, and gives it up
 * (after its running work) when it does not. Ownership *is* the lock: its lease's fencing token,
 * its signal (aborted before anyone else can be granted the lock), its ready znode.
 */
export class PartitionHolder {
  private state: HolderState = { kind: 'idle' };
  private wanted = false;
  private running = 0;
  private drained: (() => void) | undefined;
  private failures = 0;
  private closed = false;
  private whenIdle: (() => void) | undefined;

  constructor(
    readonly partition: number,
    private readonly lockName: string,
    private readonly host: HolderHost,
    /** The set's directory, for error messages. */
    private readonly setPath: string,
  ) {}

  /** The lease while the partition is owned (granted, repaired, not draining, not lost). */
  get lease(): Lease | undefined {
    return this.state.kind === 'owned' && this.state.lease.isHeld ? this.state.lease : undefined;
  }

  /** Sets whether the assignment gives this partition to us. */
  want(wanted: boolean): void {
    this.wanted = wanted && !this.closed;
    this.reconcile();
  }

  /** Pins the lease for one run of work; undefined when not owned. Pair with `exit()`. */
  enter(): Lease | undefined {
    const lease = this.lease;
    if (lease) this.running += 1;
    return lease;
  }

  exit(): void {
    this.running -= 1;
    if (this.running === 0) this.drained?.();
  }

  /**
   * A run of work threw: the ready znode is dirty under our token, which only a later token repairs.
   * So the lease is given up (after the other runs) and, if still ours, queued for again: the
   * recovery runs at that take-over, before any new work on the partition.
   */
  recycle(lease: Lease): void {
    if (this.state.kind === 'owned' && this.state.lease === lease) void this.drain(lease, 'a run threw: taken again so that its recovery runs first');
  }

  /** Aborts once the partition is to leave this replica (its drain started); undefined when not owned or draining. */
  get moveRequested(): AbortSignal | undefined {
    return this.state.kind === 'owned' || this.state.kind === 'draining' ? this.state.moving.signal : undefined;
  }

  /** Stops wanting the partition and waits (at most `drainTimeoutMs`) until it is released. */
  async close(drainTimeoutMs: number): Promise<void> {
    this.closed = true;
    this.want(false);
    if (this.state.kind === 'idle') return;
    const idle = new Promise<void>((resolve) => (this.whenIdle = resolve));
    const timer = new AbortController(); // the bound's timer must not outlive the drain
    await Promise.race([idle, pause(drainTimeoutMs, timer.signal)]);
    timer.abort();
  }

  private setState(state: HolderState): void {
    const wasOwned = this.state.kind === 'owned';
    this.state = state;
    if (state.kind === 'idle') this.whenIdle?.();
    if (wasOwned !== (state.kind === 'owned')) this.host.changed();
  }

  private reconcile(): void {
    const { state } = this;
    if (this.wanted && state.kind === 'idle') void this.acquire();
    else if (!this.wanted && state.kind === 'queued') state.abort.abort(new Error('the partition was assigned elsewhere'));
    else if (!this.wanted && state.kind === 'owned') void this.drain(state.lease, this.closed ? 'the set is closing' : 'assigned elsewhere');
  }

  private async acquire(): Promise<void> {
    const abort = new AbortController();
    const queued: HolderState = { kind: 'queued', abort };
    this.setState(queued);
    let lease: Lease;
    try {
      lease = await this.host.locks.acquire(this.lockName, { signal: abort.signal });
    } catch (error) {
      this.setState({ kind: 'idle' });
      // Closed for good: queueing again would fail at once, again and again.
      if (error instanceof SessionClosedError) return;
      // Aborted: no longer ours (or ours again meanwhile: then queue again at once).
      if (error instanceof LockAbortedError || this.closed) return this.reconcile();
      this.failures += 1;
      this.host.logger.warn(`Queueing for partition ${this.partition} failed (retrying): ${String(error)}`);
      await pause(backoffDelay(this.failures));
      return this.reconcile();
    }
    this.setState({ kind: 'taking-over', lease });
    // The signal is read now, so that its abort (a loss) reaches us as an event; a lease granted on
    // a session lost meanwhile comes back aborted already.
    if (lease.signal.aborted) return this.lost(lease);
    lease.signal.addEventListener('abort', () => this.lost(lease), { once: true });
    await this.takeOver(lease);
    if (this.state.kind !== 'taking-over' || this.state.lease !== lease) return; // lost meanwhile
    if (!lease.isHeld) return this.lost(lease);
    this.failures = 0;
    if (this.wanted) this.setState({ kind: 'owned', lease, moving: new AbortController() });
    else await this.drain(lease, 'assigned elsewhere');
  }

  /**
   * The new owner's first step, as a new leader's: when the previous owner left the partition's
   * ready znode dirty (it died or its work threw mid-run), the recovery handler runs now, exactly
   * once, before the partition is reported owned. A failing handler is retried with back-off while
   * we hold the lease and the partition is still ours; the state stays dirty meanwhile.
   */
  private async takeOver(lease: Lease): Promise<void> {
    const ready = new ReadyState(this.host.session, this.host.locks.pathOf(this.lockName), 'delete');
    for (let failures = 0; lease.isHeld && this.wanted; ) {
      try {
        const current = await ready.read();
        if (current?.record.state !== 'dirty' || current.record.token === lease.fencingToken.toString()) return;
        const owner = { token: lease.fencingToken, holder: this.host.identity, signal: lease.signal };
        const section = await this.host.locks.enterGuarded(this.lockName, owner, this.host.recoveryFor(this.partition));
        await section.complete();
        return;
      } catch (error) {
        if (!lease.isHeld) return;
        failures += 1;
        this.host.logger.error(`Taking over partition ${this.partition} failed (retrying while it is ours): ${String(error)}`);
        await pause(backoffDelay(failures), lease.signal);
      }
    }
  }

  /** Stops reporting the partition, waits for its running work, then releases its lock. */
  private async drain(lease: Lease, reason: string): Promise<void> {
    const moving = this.state.kind === 'owned' ? this.state.moving : new AbortController();
    this.setState({ kind: 'draining', lease, moving });
    moving.abort(new PartitionMovingError(this.setPath, this.partition, reason));
    if (this.running > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    this.drained = undefined;
    try {
      await lease.release();
    } catch (error) {
      this.host.logger.error(`Releasing partition ${this.partition} failed (its node goes with the session): ${String(error)}`);
    }
    if (this.state.kind === 'draining' && this.state.lease === lease) this.setState({ kind: 'idle' });
    this.reconcile();
  }

  /** The lease's signal aborted: lost (session), or our own release (then the state has moved on already). */
  private lost(lease: Lease): void {
    const { state } = this;
    if (state.kind === 'idle' || state.kind === 'queued' || state.lease !== lease || state.kind === 'draining') return;
    this.setState({ kind: 'idle' });
    // The loss is final: let the node go (with the session, or now).
    lease.release().catch((error: unknown) => this.host.logger.error(`Releasing lost partition ${this.partition} failed: ${String(error)}`));
    // Queue again (if still ours) once the session can take requests; spaced out if losses repeat.
    this.failures += 1;
    void pause(backoffDelay(this.failures, 10)).then(() => this.reconcile());
  }
}
