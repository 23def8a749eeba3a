import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { describeValue } from '../errors/describe-value.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { LockBusyError } from '../errors/lock-busy.error.js';
import { LockLostError } from '../errors/lock-lost.error.js';
import { LockTimeoutError } from '../errors/lock-timeout.error.js';
import type { AcquireOptions, LockRecipe } from '../recipes/lock/lock-client.js';
import type { SectionHandle } from '../recipes/ready/guarded-section.js';
import type { Lease } from '../recipes/lock/lease.js';
import type { RecoveryHandler } from '../recipes/ready/ready-state.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import { HeldLock } from './held-lock.js';
import { findHeldLock, findLockFrame, LeasePins, lockContext, type LockFrame } from './lock-context.js';
import { withLockSet, type WithLocksOptions } from './lock-set.js';
import { ZK_LOCK_BACKEND, type ZkLockBackend } from './zk-lock-backend.js';

export type OnBusy = 'wait' | 'skip' | 'throw';

export interface WithLockOptions extends AcquireOptions {
  /**
   * When the lock is not granted at once (or within `waitMs`): `wait` (default) keeps waiting,
   * then throws `LockTimeoutError`; `skip` returns undefined without running; `throw` throws
   * `LockBusyError`. With `skip` / `throw` and no `waitMs`, the lock is tried once, never queued.
   */
  readonly onBusy?: OnBusy;
  /**
   * Makes the lock guarded: when the previous holder died or threw mid-call, this runs first
   * with what it left (holder, token, last checkpoint). See README "Recovery".
   */
  readonly recover?: RecoveryHandler;
}

const ON_BUSY: readonly OnBusy[] = ['wait', 'skip', 'throw'];
const SHUTDOWN_REASON = 'the application is shutting down';
const REVOKED_AT_SHUTDOWN = 'the application is shutting down and the lock was still held after drainTimeoutMs';

/**
 * Fair, cluster-wide locks by name. `withLock` is the everyday API (re-entrant within one async
 * call chain, recovery, fencing token); `acquire` / `tryAcquire` hand out raw leases to release
 * yourself. On shutdown, waiting acquisitions are aborted, running calls get `drainTimeoutMs`
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
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    @Inject(ZK_LOCK_BACKEND) backend: ZkLockBackend,
    @Inject(ZK_LOCK_OPTIONS) private readonly options: ResolvedZkLockOptions,
  ) {
    this.locks = backend.locks;
  }

  /** Waits for the lock and returns the lease; `lease.release()` when done. */
  async acquire(name: string, options: AcquireOptions = {}): Promise<Lease> {
    validateAcquireOptions(options); // async: bad options reject, like every other failure of acquire
    return this.locks.acquire(name, { waitMs: options.waitMs, signal: this.withShutdown(options.signal) });
  }

  /** The lease if nobody holds or waits for the lock, else undefined. Never queues. */
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
    this.locks.pathOf(name); // validates the name before anything else happens
    const frame = findLockFrame(this, name);
    if (frame) return this.reenter(frame, fn);

    const lease = await this.obtain(name, options);
    if (!lease) return undefined;
    const call = this.runHolding(name, lease, fn, options.recover);
    this.running.add(call);
    try {
      return await call;
    } finally {
      this.running.delete(call);
    }
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
    if ((options as WithLockOptions).recover !== undefined) throw new InvalidOptionsError('recover', 'withLocks runs no recovery: guard a lock with withLock(name, fn, { recover })');
    const take = <R>(name: string, each: (lock: HeldLock) => R | Promise<R>, eachOptions: WithLocksOptions) => this.withLock(name, each, eachOptions);
    return withLockSet(this, take, (name) => this.locks.pathOf(name), names, fn, options);
  }

  /** The lock held by the current call chain (the innermost, or the one named `name`). */
  current(name?: string): HeldLock | undefined {
    return findHeldLock(this, name);
  }

  /** Leases held by this process right now. */
  heldLeases(): Lease[] {
    return this.locks.heldLeases();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.shutdown.abort(new LockLostError(this.options.root, SHUTDOWN_REASON));
    if (this.running.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const drained = Promise.allSettled([...this.running]);
      const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.drainTimeoutMs)));
      await Promise.race([drained, timedOut]);
      clearTimeout(timer);
      if (this.running.size > 0) this.logger.warn(`${this.running.size} locked call(s) still running after drainTimeoutMs; revoking their locks (their signals abort, the calls end with LockLostError)`);
    }
    // Revoked, not just released: the signals of calls still running abort before their nodes go.
    await this.locks.close(REVOKED_AT_SHUTDOWN);
  }

  private async obtain(name: string, options: WithLockOptions): Promise<Lease | undefined> {
    const onBusy = options.onBusy ?? 'wait';
    if (onBusy === 'wait') return this.acquire(name, options);
    try {
      const lease =
        options.waitMs === undefined
          ? await this.tryAcquire(name)
          : await this.locks.acquire(name, { waitMs: options.waitMs, signal: this.withShutdown(options.signal) });
      if (lease || onBusy === 'skip') return lease;
    } catch (error) {
      if (!(error instanceof LockTimeoutError)) throw error;
      if (onBusy === 'skip') return undefined;
    }
    throw new LockBusyError(this.locks.pathOf(name));
  }

  /**
   * Runs `fn` as the holder of the lease the call chain holds already. The chain may be a flow
   * forked inside the locked call (an unawaited call, a timer): while the lease is held, this call
   * pins it (the locked call releases it only after this one ends); once it is released or lost,
   * the call is refused, neither run nor queued as a fresh acquisition.
   */
  private async reenter<T>(frame: LockFrame, fn: (lock: HeldLock) => T | Promise<T>): Promise<T> {
    const { lock } = frame;
    if (!frame.pins.enter()) {
      throw new LockLostError(lock.lease.path, 'its lease was released before this re-entrant call started; a flow forked inside a locked call must end within it (await it there)');
    }
    try {
      lock.lease.assertHeld();
      const result = await fn(lock);
      lock.lease.assertHeld(); // lost while it ran: say so, as the acquiring call does
      return result;
    } finally {
      frame.pins.exit();
    }
  }

  private async runHolding<T>(name: string, lease: Lease, fn: (lock: HeldLock) => T | Promise<T>, recover: RecoveryHandler | undefined): Promise<T> {
    let result: T;
    try {
      const [value, section] = await this.runPinned(name, lease, fn, recover);
      // The call ran to its end, but if the lease was lost meanwhile it may have overlapped the
      // next holder: say so instead of returning as if nothing happened. A guarded section then
      // stays dirty, so that the next holder repairs whatever it was.
      lease.assertHeld();
      try {
        await section?.complete();
      } catch (error) {
        lease.assertHeld(); // failed because the lease was lost meanwhile: say that
        throw error;
      }
      result = value;
    } catch (error) {
      // What failed is what the caller must see: a failing release is logged, never thrown over it.
      await lease.release().catch((releaseError: unknown) => this.reportReleaseFailure(lease, releaseError));
      throw error;
    }
    await lease.release();
    return result;
  }

  /**
   * Recovery (if guarded) and `fn` in the lock's frame, so that both re-enter the lease when they
   * take the same lock; resolves once they and every re-entrant call they started have ended.
   */
  private async runPinned<T>(
    name: string,
    lease: Lease,
    fn: (lock: HeldLock) => T | Promise<T>,
    recover: RecoveryHandler | undefined,
  ): Promise<[T, SectionHandle | undefined]> {
    const pins = new LeasePins();
    const parent = lockContext.getStore();
    try {
      // A grant can arrive on a session that already counts as lost (its reply raced the loss
      // clock): the lease comes back aborted. Never start recovery or `fn` on it.
      lease.assertHeld();
      let section: SectionHandle | undefined;
      if (recover) {
        const recovering = new HeldLock(name, lease, undefined);
        // The lease's signal ends the section's retries through connection loss once the lock is lost.
        const owner = { token: lease.fencingToken, holder: this.options.identity, signal: lease.signal };
        section = await lockContext.run({ owner: this, lock: recovering, pins, parent }, () => this.locks.enterGuarded(name, owner, recover));
        lease.assertHeld(); // lost while recovering: the section must not start either
      }
      const lock = new HeldLock(name, lease, section);
      const value = await lockContext.run({ owner: this, lock, pins, parent }, () => fn(lock));
      return [value, section];
    } finally {
      pins.exit();
      await pins.ended();
    }
  }

  private reportReleaseFailure(lease: Lease, error: unknown): void {
    this.logger.error(`Could not release ${lease.path} after the locked call failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  private withShutdown(signal: AbortSignal | undefined): AbortSignal {
    return signal ? AbortSignal.any([signal, this.shutdown.signal]) : this.shutdown.signal;
  }
}

function validateAcquireOptions(options: AcquireOptions): void {
  if (options === null || typeof options !== 'object') throw new InvalidOptionsError('options', 'expected an object');
  const { waitMs, signal } = options;
  if (waitMs !== undefined && (typeof waitMs !== 'number' || Number.isNaN(waitMs) || waitMs < 0)) {
    throw new InvalidOptionsError('waitMs', `expected a number of milliseconds >= 0, got ${describeValue(waitMs)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new InvalidOptionsError('signal', 'expected an AbortSignal');
}

/** Throws `InvalidOptionsError` naming the first bad field. Also used by `@WithLock` at decoration time. */
export function validateWithLockOptions(options: WithLockOptions): void {
  validateAcquireOptions(options);
  if (options.onBusy !== undefined && !ON_BUSY.includes(options.onBusy)) {
    throw new InvalidOptionsError('onBusy', `expected one of ${ON_BUSY.join(', ')}, got ${describeValue(options.onBusy)}`);
  }
  if (options.recover !== undefined && typeof options.recover !== 'function') {
    throw new InvalidOptionsError('recover', 'expected a function');
  }
}
