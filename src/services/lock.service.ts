import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { LockBusyError } from '../errors/lock-busy.error.js';
import { LockLostError } from '../errors/lock-lost.error.js';
import { LockTimeoutError } from '../errors/lock-timeout.error.js';
import { LockUpgradeError } from '../errors/lock-upgrade.error.js';
import type { AcquireOptions, LockRecipe } from '../recipes/lock/lock-client.js';
import type { Lease } from '../recipes/lock/lease.js';
import type { ReleaseRequest } from '../recipes/queue/release-request.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import type { HeldLock } from './held-lock.js';
import { findHeldLock, findLockFrame } from './lock-context.js';
import { LockedCalls } from './locked-calls.js';
import {
  refuseRecovery,
  SEMAPHORE_OPTION_KEYS,
  validateAcquireOptions,
  validateSemaphorePermits,
  validateWithLockOptions,
  type ReadWriteLockOptions,
  type SemaphoreOptions,
  type SemaphorePermits,
  type WithLockOptions,
} from './lock-options.js';
import { withLockSet, type WithLocksOptions } from './lock-set.js';
import { ZK_LOCK_BACKEND, type ZkLockBackend } from './zk-lock-backend.js';

const SHUTDOWN_REASON = 'the application is shutting down';
const REVOKED_AT_SHUTDOWN = 'the application is shutting down and the lock was still held after drainTimeoutMs';

/**
 * Fair, cluster-wide locks by name. `withLock` is the everyday API (re-entrant within one async
 * call chain, recovery, fencing token); `acquire` / `tryAcquire` hand out raw leases to release
 * yourself. `withLocks` holds several at once; `withReadLock` / `withWriteLock` and
 * `withSemaphore` are the read/write lock and the counting semaphore, each kind in its own
 * directory (a name means three independent locks), with the same waiting, leases and shutdown. On shutdown, waiting acquisitions are aborted, running calls get `drainTimeoutMs`
 * to finish, then every lock still held is revoked: its `signal` aborts with `LockLostError`
 * before its node is deleted, and the call still running ends with that error.
 *
 * Flows forked inside a locked call (a promise not awaited, a timer, an interval) carry its async
 * context. What they may rely on:
 * - a `withLock` of the same name that starts while the lease is held re-enters it and pins it:
 *   the lease is released only when the locked call and every such re-entry have ended (the
 *   locked call's `withLock` resolves after that, a guarded section completes only then);
 * - a `withLock` of the same name that starts after the lease was released or lost is refused
 *   with `LockLostError`: it neither runs nor queues for the lock again;
 * - anything else (plain code in a timer) runs without the lock once the call has ended, so it
 *   must check `signal` / `lease.assertHeld()`, which abort / throw from the release on.
 */
@Injectable()
export class LockService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('ZkLock');
  private readonly locks: LockRecipe;
  private readonly shutdown = new AbortController();
  private readonly calls: LockedCalls;
  /** Whose frames the read/write locks' and the semaphores' are (a lock's are this service's): one name, three independent locks. */
  private readonly readWriteFrames = {};
  private readonly semaphoreFrames = {};

  constructor(
    @Inject(ZK_LOCK_BACKEND) backend: ZkLockBackend,
    @Inject(ZK_LOCK_OPTIONS) private readonly options: ResolvedZkLockOptions,
  ) {
    this.locks = backend.locks;
    this.calls = new LockedCalls(this.locks, options.identity, this.logger);
  }

  /** Waits for the lock and returns the lease; `lease.release()` when done. */
  async acquire(name: string, options: AcquireOptions = {}): Promise<Lease> {
    validateAcquireOptions(options); // async: bad options reject, like every other failure of acquire
    return this.locks.acquire(name, { waitMs: options.waitMs, signal: this.withShutdown(options.signal) });
  }

  /**
   * The lease if nobody holds or waits for the lock, else undefined. Never queues, and never waits
   * for ZooKeeper: `ZooKeeperUnreachableError` when the session is disconnected (see `FairQueue.join`).
   */
  tryAcquire(name: string): Promise<Lease | undefined> {
    if (this.shutdown.signal.aborted) return Promise.reject(this.shutdown.signal.reason);
    return this.locks.tryAcquire(name);
  }

  /**
   * Runs `fn` while holding the lock `name`; see `WithLockOptions` for waiting and recovery. Within
   * a call chain that holds `name` already, re-enters that lease (see the class doc for flows
   * forked inside a locked call).
   */
  withLock<T>(name: string, fn: (lock: HeldLock) => T | Promise<T>, options?: WithLockOptions & { onBusy?: 'wait' | 'throw' }): Promise<T>;
  withLock<T>(name: string, fn: (lock: HeldLock) => T | Promise<T>, options: WithLockOptions): Promise<T | undefined>;
  async withLock<T>(name: string, fn: (lock: HeldLock) => T | Promise<T>, options: WithLockOptions = {}): Promise<T | undefined> {
    validateWithLockOptions(options);
    const path = this.locks.pathOf(name); // validates the name before anything else happens
    const frame = findLockFrame(this, name);
    if (frame) return this.calls.reenter(frame, fn);
    const lease = await this.obtain(path, (waitMs, signal) => this.locks.acquire(name, { waitMs, signal }), options);
    if (!lease) return undefined;
    return this.calls.run(this, 'lock', name, lease, fn, options.recover);
  }

  /**
   * Runs `fn` while holding every lock of `names` (distinct), taken in one canonical order so that
   * overlapping sets never deadlock, all or nothing; `fn` gets the held locks in the order of
   * `names` (each with its fencing token), and they are released in the reverse order of taking.
   * See `withLockSet`.
   */
  withLocks<T>(names: readonly string[], fn: (locks: readonly HeldLock[]) => T | Promise<T>, options?: WithLocksOptions & { onBusy?: 'wait' | 'throw' }): Promise<T>;
  withLocks<T>(names: readonly string[], fn: (locks: readonly HeldLock[]) => T | Promise<T>, options: WithLocksOptions): Promise<T | undefined>;
  async withLocks<T>(names: readonly string[], fn: (locks: readonly HeldLock[]) => T | Promise<T>, options: WithLocksOptions = {}): Promise<T | undefined> {
    validateWithLockOptions(options);
    refuseRecovery(options, 'withLocks');
    const take = <R>(name: string, each: (lock: HeldLock) => R | Promise<R>, eachOptions: WithLocksOptions) => this.withLock(name, each, eachOptions);
    return withLockSet(this, take, (name) => this.locks.pathOf(name), names, fn, options);
  }

  /**
   * Runs `fn` while holding the read lock of the read/write lock `name`: with other readers, never
   * with a writer. Fair: it waits for the writers queued before it, and a writer queued after it
   * waits for it. Within a call chain that holds this read/write lock already (read or write),
   * re-enters that lease: a write holder reads under its write lock, so no queued writer gets in
   * between. A read/write lock is independent of `withLock` of the same name.
   */
  withReadLock<T>(name: string, fn: (lock: HeldLock) => T | Promise<T>, options?: ReadWriteLockOptions & { onBusy?: 'wait' | 'throw' }): Promise<T>;
  withReadLock<T>(name: string, fn: (lock: HeldLock) => T | Promise<T>, options: ReadWriteLockOptions): Promise<T | undefined>;
  withReadLock<T>(name: string, fn: (lock: HeldLock) => T | Promise<T>, options: ReadWriteLockOptions = {}): Promise<T | undefined> {
    return this.withReadWrite('read', name, fn, options);
  }

  /**
   * Runs `fn` while holding the write lock of the read/write lock `name`: alone, no reader or other
   * writer. Within a call chain that holds its write lock already, re-enters it; one that holds its
   * read lock is refused with `LockUpgradeError` (it would wait for itself).
   */
  withWriteLock<T>(name: string, fn: (lock: HeldLock) => T | Promise<T>, options?: ReadWriteLockOptions & { onBusy?: 'wait' | 'throw' }): Promise<T>;
  withWriteLock<T>(name: string, fn: (lock: HeldLock) => T | Promise<T>, options: ReadWriteLockOptions): Promise<T | undefined>;
  withWriteLock<T>(name: string, fn: (lock: HeldLock) => T | Promise<T>, options: ReadWriteLockOptions = {}): Promise<T | undefined> {
    return this.withReadWrite('write', name, fn, options);
  }

  /** Waits for the read lock of `name` and returns the lease; `lease.release()` when done. Not re-entrant. */
  async acquireRead(name: string, options: AcquireOptions = {}): Promise<Lease> {
    return this.acquireOf(this.locks.pathOf(name, 'read'), (waitMs, signal) => this.locks.acquireRead(name, { waitMs, signal }), options);
  }

  /** Waits for the write lock of `name` and returns the lease; `lease.release()` when done. Not re-entrant. */
  async acquireWrite(name: string, options: AcquireOptions = {}): Promise<Lease> {
    return this.acquireOf(this.locks.pathOf(name, 'write'), (waitMs, signal) => this.locks.acquireWrite(name, { waitMs, signal }), options);
  }

  /**
   * Runs `fn` while holding `take` (default 1) of the `permits` permits of the semaphore `name`:
   * at most `permits` are held across the cluster. Fair (first come, first served, nobody
   * overtakes) and all or nothing: a request for several permits holds none while it waits. Within
   * a call chain that holds permits of `name` already, re-enters them.
   */
  withSemaphore<T>(name: string, options: SemaphoreOptions & { onBusy?: 'wait' | 'throw' }, fn: (lock: HeldLock) => T | Promise<T>): Promise<T>;
  withSemaphore<T>(name: string, options: SemaphoreOptions, fn: (lock: HeldLock) => T | Promise<T>): Promise<T | undefined>;
  async withSemaphore<T>(name: string, options: SemaphoreOptions, fn: (lock: HeldLock) => T | Promise<T>): Promise<T | undefined> {
    const request = validateSemaphorePermits(options, SEMAPHORE_OPTION_KEYS);
    validateWithLockOptions(options, SEMAPHORE_OPTION_KEYS);
    refuseRecovery(options, 'withSemaphore');
    const path = this.locks.pathOf(name, 'semaphore');
    const frame = findLockFrame(this.semaphoreFrames, name);
    if (frame) return this.calls.reenter(frame, fn);
    const lease = await this.obtain(path, (waitMs, signal) => this.locks.acquirePermits(name, request, { waitMs, signal }), options);
    if (!lease) return undefined;
    return this.calls.run(this.semaphoreFrames, 'semaphore', name, lease, fn);
  }

  /** Waits for `take` (default 1) of the `permits` permits of semaphore `name`; `lease.release()` returns them all. */
  async acquireSemaphore(name: string, permits: SemaphorePermits, options: AcquireOptions = {}): Promise<Lease> {
    const request = validateSemaphorePermits(permits);
    return this.acquireOf(this.locks.pathOf(name, 'semaphore'), (waitMs, signal) => this.locks.acquirePermits(name, request, { waitMs, signal }), options);
  }

  /**
   * The lock held by the current call chain: the innermost section's (`withLock`, `withLocks`,
   * `withReadLock`, `withWriteLock`, `withSemaphore` and their decorators), or with `name` the
   * innermost section of that name. A lock, a read/write lock and a semaphore of one name are three
   * locks: `kind` says which one it is. A read/write lock's is the lease the chain holds of it, so a
   * read nested in a write answers the write lease (kind `write`); a semaphore's is its permits'
   * lease (its token orders grants, but concurrent holders may share one). Undefined outside.
   */
  current(name?: string): HeldLock | undefined {
    return findHeldLock([this, this.readWriteFrames, this.semaphoreFrames], name);
  }

  /** Leases held by this process right now. */
  heldLeases(): Lease[] {
    return this.locks.heldLeases();
  }

  /**
   * Asks the current holder of lock `name`, in this process or another, to let go: its
   * `releaseRequested` signal (on the lease, or the `HeldLock` of a `withLock` call) aborts with
   * `ReleaseRequestedError`, if it reads it. Cooperative: nothing is released on the holder's
   * behalf, and a holder that does not look keeps the lock. Resolves with whom it asked (the
   * holder's node, identity and session) or `{ requested: false }` when nobody held the lock.
   * Rejects with `InvalidLockNameError` for a bad name, `ZooKeeperError` when ZooKeeper fails.
   */
  requestRelease(name: string): Promise<ReleaseRequest> {
    return this.locks.requestRelease(name);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.shutdown.abort(new LockLostError(this.options.root, SHUTDOWN_REASON));
    await this.calls.drain(this.options.drainTimeoutMs);
    if (this.calls.size > 0) this.logger.warn(`${this.calls.size} locked call(s) still running after drainTimeoutMs; revoking their locks (their signals abort, the calls end with LockLostError)`);
    // Revoked, not just released: the signals of calls still running abort before their nodes go.
    await this.locks.close(REVOKED_AT_SHUTDOWN);
  }

  private async withReadWrite<T>(mode: 'read' | 'write', name: string, fn: (lock: HeldLock) => T | Promise<T>, options: ReadWriteLockOptions): Promise<T | undefined> {
    validateWithLockOptions(options);
    refuseRecovery(options, mode === 'read' ? 'withReadLock' : 'withWriteLock');
    const path = this.locks.pathOf(name, mode);
    const frame = findLockFrame(this.readWriteFrames, name);
    if (frame) {
      // A reader's write would queue behind its own read node, forever.
      if (mode === 'write' && frame.lock.kind === 'read') throw new LockUpgradeError(path);
      return this.calls.reenter(frame, fn);
    }
    const take = (waitMs: number | undefined, signal: AbortSignal) =>
      mode === 'read' ? this.locks.acquireRead(name, { waitMs, signal }) : this.locks.acquireWrite(name, { waitMs, signal });
    const lease = await this.obtain(path, take, options);
    if (!lease) return undefined;
    return this.calls.run(this.readWriteFrames, mode, name, lease, fn);
  }

  /** A raw lease of a kind whose acquisition resolves undefined when `waitMs` 0 finds it busy. */
  private async acquireOf(path: string, take: (waitMs: number | undefined, signal: AbortSignal) => Promise<Lease | undefined>, options: AcquireOptions): Promise<Lease> {
    validateAcquireOptions(options);
    const lease = await take(options.waitMs, this.withShutdown(options.signal));
    // waitMs 0 means "do not queue": not granted at once is a timeout of zero.
    if (!lease) throw new LockTimeoutError(path, 0);
    return lease;
  }

  /**
   * The lease of a locked call, as `onBusy` wants it: `wait` waits (up to `waitMs`); `skip` and
   * `throw` try once (or wait up to `waitMs`), then resolve undefined or throw `LockBusyError`.
   */
  private async obtain(path: string, take: (waitMs: number | undefined, signal: AbortSignal) => Promise<Lease | undefined>, options: ReadWriteLockOptions): Promise<Lease | undefined> {
    const onBusy = options.onBusy ?? 'wait';
    if (onBusy === 'wait') return this.acquireOf(path, take, { waitMs: options.waitMs, signal: options.signal });
    try {
      // No waitMs: tried once, never queued (as `tryAcquire`, which a shutdown refuses).
      if (options.waitMs === undefined && this.shutdown.signal.aborted) throw this.shutdown.signal.reason;
      const lease = await take(options.waitMs ?? 0, this.withShutdown(options.signal));
      if (lease || onBusy === 'skip') return lease;
    } catch (error) {
      if (!(error instanceof LockTimeoutError)) throw error;
      if (onBusy === 'skip') return undefined;
    }
    throw new LockBusyError(path);
  }

  private withShutdown(signal: AbortSignal | undefined): AbortSignal {
    return signal ? AbortSignal.any([signal, this.shutdown.signal]) : this.shutdown.signal;
  }
}

export { validateWithLockOptions, type OnBusy, type ReadWriteLockOptions, type SemaphoreOptions, type SemaphorePermits, type WithLockOptions } from './lock-options.js';
