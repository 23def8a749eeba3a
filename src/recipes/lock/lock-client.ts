import { performance } from 'node:perf_hooks';
import type { LockLostError } from '../../errors/lock-lost.error.js';
import { LockTimeoutError } from '../../errors/lock-timeout.error.js';
import { diagnosticsSink, type EventSink } from '../../observability/event-sink.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { FairQueue, type QueueEntry } from '../queue/fair-queue.js';
import { requestRelease, type ReleaseRequest } from '../queue/release-request.js';
import { READ_DRIVER } from '../read-write/read-write-drivers.js';
import { exclusiveDriver } from './hand-off.js';
import { PermitPool, type PermitRequest } from '../semaphore/permit-pool.js';
import { GuardedSection, type SectionHandle } from '../ready/guarded-section.js';
import { CompletingRelease } from './completing-release.js';
import type { LockClientLogger, LockClientOptions, LockKind, LockRecipe } from './lock-recipe.js';
import { acquireOptionsOf, type AcquireOptions } from './acquire-options.js';
import { LeaseRegistry } from './lease-registry.js';
import { Lease, type LeaseHost } from './lease.js';
import { waitFailed, type LockEventsByChannel } from './lock-events.js';
import { watchReleaseRequest } from './release-watch.js';
import { validateLockName } from '../lock-name.js';
import { ReadyState, type InterruptedSection, type RecoveryHandler, type SectionOwner } from '../ready/ready-state.js';
import { znodePaths } from '../znode-paths.js';
import { hasSessionEnded } from '../../zookeeper/session-state.js';

export { ACQUIRE_OPTION_KEYS, type AcquireOptions } from './acquire-options.js';

export type { LockClientLogger, LockClientOptions, LockKind, LockRecipe } from './lock-recipe.js';

/**
 * Fair, cluster-wide mutual exclusion by lock name (the ZooKeeper paper's lock without herd
 * effect). Not re-entrant: two acquisitions of one name, even in one process, exclude each
 * other and are granted in request order. Each `name` is its own queue (`order:123`).
 *
 * Costs: uncontended acquire + release is 3 requests in 2 round trips; a queued acquisition
 * 5 requests; each release wakes exactly one waiter.
 */
export class LockClient implements LockRecipe {
  private readonly queue: FairQueue;
  /** The queues of read/write locks: readers and writers in one queue per lock. */
  private readonly readWriteQueue: FairQueue;
  private readonly permits: PermitPool;
  private readonly registry: LeaseRegistry;
  private readonly data: Buffer | undefined;
  private readonly events: EventSink<LockEventsByChannel>;
  private readonly logger: LockClientLogger;
  /** Why `close()` was called, once it was: a grant arriving after that is revoked at once. */
  private closedFor: string | undefined;
  /** The guarded sections that end with their lease's release: its delete carries their completion. */
  private readonly endings = new WeakMap<Lease, CompletingRelease>();
  /** The directory and kind of each lease's lock (a lease knows its name only), for its events; set at the grant. */
  private readonly leaseLocks = new WeakMap<Lease, { readonly dir: string; readonly kind: LockKind }>();
  /** What every lease of this client reports to: the session's doubt, and its loss (events, logs). */
  private readonly leaseHost: LeaseHost = {
    sessionInDoubt: () => this.session.mayHaveExpired,
    lost: (lease: Lease, error: LockLostError) => {
      if (this.events.wants('lock')) {
        this.events.emit('lock', { type: 'lock.lost', name: lease.name, path: this.leaseLocks.get(lease)!.dir, token: lease.fencingToken, reason: error.reason });
      }
    },
    releaseFailed: (lease: Lease, error: unknown) => {
      this.logger.error(`Could not delete ${lease.path} after its lease was lost or revoked (the server removes it when the session ends): ${describeError(error)}`);
    },
    watchReleaseRequest: (lease: Lease, requested: () => boolean) => {
      const { dir, kind } = this.leaseLocks.get(lease)!;
      // A semaphore's holders are never asked (`requestRelease` is a lock's); their version is a grant's mark (`PermitPool`).
      if (kind === 'semaphore') return;
      watchReleaseRequest(this.session, lease, () => {
        if (requested() && this.events.wants('lock')) this.events.emit('lock', { type: 'lock.release-requested', name: lease.name, path: dir, token: lease.fencingToken });
      });
    },
  };

  constructor(
    private readonly session: ZkSessionClient,
    private readonly options: LockClientOptions,
  ) {
    this.logger = options.logger ?? console;
    this.queue = new FairQueue(session, ['lock'], this.logger);
    this.readWriteQueue = new FairQueue(session, ['read', 'write'], this.logger);
    this.permits = new PermitPool(session, this.logger);
    this.registry = new LeaseRegistry(session);
    this.data = options.identity === undefined ? undefined : Buffer.from(options.identity);
    this.events = options.events ?? diagnosticsSink;
  }

  /** Waits for the lock (in queue order) and returns the lease. */
  async acquire(name: string, options: AcquireOptions = {}): Promise<Lease> {
    const lease = await this.join(name, 'lock', options);
    // waitMs 0 means "do not queue": not granted at once is a timeout of zero.
    if (!lease) throw new LockTimeoutError(this.pathOf(name), 0);
    return lease;
  }

  /** Takes the lock only if nobody holds or waits for it; never queues. */
  tryAcquire(name: string): Promise<Lease | undefined> {
    return this.join(name, 'lock', { waitMs: 0 });
  }

  /**
   * Waits for the read lock of the read/write lock `name` (in queue order: behind every writer that
   * queued first) and returns the lease; with `waitMs: 0`, undefined unless granted at once.
   */
  acquireRead(name: string, options: AcquireOptions = {}): Promise<Lease | undefined> {
    return this.join(name, 'read', options);
  }

  /** Waits for the write lock of the read/write lock `name` (behind everyone queued first); as `acquireRead`. */
  acquireWrite(name: string, options: AcquireOptions = {}): Promise<Lease | undefined> {
    return this.join(name, 'write', options);
  }

  /**
   * Waits for `request.take` permits of the semaphore `name` of `request.permits` (in queue order,
   * all at once) and returns the lease, which holds them all; with `waitMs: 0`, undefined unless
   * they are free at once. See `PermitPool`.
   */
  acquirePermits(name: string, request: PermitRequest, options: AcquireOptions = {}): Promise<Lease | undefined> {
    return this.join(name, 'semaphore', options, request);
  }

  /** The directory znode of lock `name` of `kind`: locks, read/write locks and semaphores never share one. */
  pathOf(name: string, kind: LockKind = 'lock'): string {
    const valid = validateLockName(name);
    const { root } = this.options;
    if (kind === 'lock') return znodePaths.lockDir(root, valid);
    return kind === 'semaphore' ? znodePaths.semaphoreDir(root, valid) : znodePaths.readWriteLockDir(root, valid);
  }

  /** Leases currently held through this client. */
  heldLeases(): Lease[] {
    return this.registry.list();
  }

  /** Marks the holder's node of lock `name` (see `release-request.ts`): its `releaseRequested` aborts. 3 requests. */
  async requestRelease(name: string): Promise<ReleaseRequest> {
    return requestRelease(this.session, this.pathOf(name), 'lock');
  }

  /**
   * Enters the guarded section of lock `name` (its ready znode, see `ReadyState`) for `owner`; `recover`
   * runs first when the previous holder died or threw mid-section. Completing deletes the record (`Completion`).
   */
  enterGuarded(name: string, owner: SectionOwner, recover: RecoveryHandler): Promise<SectionHandle> {
    const dir = this.pathOf(name);
    return new ReadyState(this.session, dir, 'delete').enter(owner, async (interrupted, successor) => {
      try {
        await recover(interrupted, successor);
      } catch (error) {
        this.reportRecovery(name, dir, owner.token, interrupted, { error });
        throw error;
      }
      this.reportRecovery(name, dir, owner.token, interrupted);
    });
  }

  /** See `LockRecipe.completeAndRelease`: where the driver has multi, one transaction (`CompletingRelease`). */
  completeAndRelease(lease: Lease, section: SectionHandle): Promise<void> | undefined {
    if (!(section instanceof GuardedSection) || !section.completionOp() || !this.session.supports('multi')) return undefined;
    const ending = new CompletingRelease(this.session, section, (error) => this.logger.error(`Could not delete ${lease.path} at the end of its guarded section: ${describeError(error)}`));
    this.endings.set(lease, ending);
    return ending.release(lease);
  }

  /**
   * Revokes every lease still held (each `signal` aborts with `LockLostError(reason)` before its
   * node is deleted, DESIGN §8.8), and any lease granted from now on, then stops watching the
   * session. Resolves once the held leases' nodes are deleted.
   */
  async close(reason = 'the lock client was closed'): Promise<void> {
    this.closedFor ??= reason;
    await Promise.all(this.registry.list().map((lease) => lease.revoke(reason)));
    this.registry.dispose();
  }

  /** Queues for the lock `name` of `kind` (`request`: a semaphore's) and wraps the grant in a registered lease. */
  private async join(name: string, kind: LockKind, options: AcquireOptions, request?: PermitRequest): Promise<Lease | undefined> {
    const dir = this.pathOf(name, kind);
    const { waitMs, signal } = acquireOptionsOf(options);
    const events = this.events;
    const startedAt = performance.now();
    if (events.wants('lock')) events.emit('lock', { type: 'lock.wait-started', name, path: dir });
    let entry: QueueEntry | undefined;
    try {
      entry = await this.enqueue(dir, kind, { data: this.data, waitMs, signal }, request);
    } catch (error) {
      if (events.wants('lock')) events.emit('lock', waitFailed(name, dir, performance.now() - startedAt, error));
      throw error;
    }
    if (!entry) {
      if (events.wants('lock')) events.emit('lock', { type: 'lock.busy', name, path: dir });
      return undefined;
    }
    const grantedAt = performance.now();
    const lease = new Lease(
      name,
      entry,
      (held) => {
        this.registry.delete(held);
        // The delete is what hands the lock over: send it before reporting anything.
        const left = this.queue.leave(held.path, held.sessionId, this.endings.get(held)?.deletion); // any node of ours, whichever queue it is in
        if (events.wants('lock')) events.emit('lock', { type: 'lock.released', name, path: dir, token: held.fencingToken, holdMs: performance.now() - grantedAt });
        return left;
      },
      this.leaseHost,
    );
    this.leaseLocks.set(lease, { dir, kind });
    this.registry.add(lease);
    if (events.wants('lock')) {
      events.emit('lock', { type: 'lock.acquired', name, path: dir, token: entry.token, waitMs: grantedAt - startedAt, handoff: entry.waited });
    }
    if (this.closedFor !== undefined) {
      // Granted after close() took its list of leases (the reply raced the shutdown): nobody would
      // release it, so it is revoked now; the caller gets it aborted.
      lease.revoke(this.closedFor).catch((error: unknown) => this.leaseHost.releaseFailed(lease, error));
    } else if (this.session.sessionId !== entry.sessionId || hasSessionEnded(this.session, entry.sessionId)) {
      // Granted on a session that was lost meanwhile (the reply raced the state change).
      lease.markLost('the session changed while the lock was granted');
      void lease.release();
    }
    return lease;
  }

  private enqueue(dir: string, kind: LockKind, options: { data?: Buffer; waitMs?: number; signal?: AbortSignal }, request?: PermitRequest): Promise<QueueEntry | undefined> {
    switch (kind) {
      case 'lock':
        return this.queue.join(dir, { ...options, driver: exclusiveDriver(this.session) });
      case 'read':
        return this.readWriteQueue.join(dir, { ...options, marker: 'read', driver: READ_DRIVER });
      case 'write':
        return this.readWriteQueue.join(dir, { ...options, marker: 'write', driver: exclusiveDriver(this.session) });
      case 'semaphore':
        return this.permits.take(dir, request!, options);
    }
  }

  private reportRecovery(name: string, path: string, token: bigint, interrupted: InterruptedSection, failure?: { error: unknown }): void {
    if (!this.events.wants('lock')) return;
    const outcome = failure ? 'failed' : 'repaired';
    this.events.emit('lock', { type: 'lock.recovery', name, path, token, interrupted, outcome, ...failure });
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
