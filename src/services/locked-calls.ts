import type { Logger } from '@nestjs/common';
import { LockLostError } from '../errors/lock-lost.error.js';
import type { LockKind, LockRecipe } from '../recipes/lock/lock-client.js';
import type { Lease } from '../recipes/lock/lease.js';
import type { SectionHandle } from '../recipes/ready/guarded-section.js';
import type { RecoveryHandler } from '../recipes/ready/ready-state.js';
import { HeldLock } from './held-lock.js';
import { LeasePins, lockContext, type LockFrame } from './lock-context.js';

/**
 * The calls `LockService` runs as the holder of a lease, whatever kind of lock it is: each in its
 * lock's frame (so that a nested call for the same lock re-enters it), the lease released when the
 * call and every re-entry it started have ended, and the set of calls still running, for the drain
 * at shutdown.
 */
export class LockedCalls {
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly locks: LockRecipe,
    /** Recorded as the holder in guarded sections. */
    private readonly identity: string,
    private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.running.size;
  }

  /** Resolves once every call running now has ended, or after `ms`, whichever comes first. */
  async drain(ms: number): Promise<void> {
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const drained = Promise.allSettled([...this.running]);
    const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([drained, timedOut]);
    clearTimeout(timer);
  }

  /**
   * Runs `fn` (after `recover`, for a guarded lock) as the holder of `lease`, of lock `name` of
   * `kind`, in a frame of `owner` (the frames `findLockFrame(owner, name)` finds); releases the lease
   * after it and every re-entry it started.
   */
  async run<T>(owner: object, kind: LockKind, name: string, lease: Lease, fn: (lock: HeldLock) => T | Promise<T>, recover?: RecoveryHandler): Promise<T> {
    const call = this.runHolding(owner, kind, name, lease, fn, recover);
    this.running.add(call);
    try {
      return await call;
    } finally {
      this.running.delete(call);
    }
  }

  /**
   * Runs `fn` as the holder of the lease the call chain holds already. The chain may be a flow
   * forked inside the locked call (an unawaited call, a timer): while the lease is held, this call
   * pins it (the locked call releases it only after this one ends); once it is released or lost,
   * the call is refused, neither run nor queued as a fresh acquisition.
   */
  async reenter<T>(frame: LockFrame, fn: (lock: HeldLock) => T | Promise<T>): Promise<T> {
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

  private async runHolding<T>(owner: object, kind: LockKind, name: string, lease: Lease, fn: (lock: HeldLock) => T | Promise<T>, recover: RecoveryHandler | undefined): Promise<T> {
    let result: T;
    let ending: Promise<void> | undefined;
    try {
      let section: SectionHandle | undefined;
      [result, section] = await this.runPinned(owner, kind, name, lease, fn, recover);
      // The call ran to its end, but if the lease was lost meanwhile it may have overlapped the
      // next holder: say so instead of returning as if nothing happened. A guarded section then
      // stays dirty, so that the next holder repairs whatever it was.
      lease.assertHeld();
      // Completion and release in one transaction where the driver can; else completion first.
      ending = section && this.locks.completeAndRelease(lease, section);
      if (section && !ending) {
        try {
          await section.complete();
        } catch (error) {
          lease.assertHeld(); // failed because the lease was lost meanwhile: say that
          throw error;
        }
      }
    } catch (error) {
      // What failed is what the caller must see: a failing release is logged, never thrown over it.
      await lease.release().catch((releaseError: unknown) => this.reportReleaseFailure(lease, releaseError));
      throw error;
    }
    await (ending ?? lease.release());
    return result;
  }

  /**
   * Recovery (if guarded) and `fn` in the lock's frame, so that both re-enter the lease when they
   * take the same lock; resolves once they and every re-entrant call they started have ended.
   */
  private async runPinned<T>(
    owner: object,
    kind: LockKind,
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
        const recovering = new HeldLock(name, lease, undefined, kind);
        // The lease's signal ends the section's retries through connection loss once the lock is lost.
        const guard = { token: lease.fencingToken, holder: this.identity, signal: lease.signal };
        section = await lockContext.run({ owner, lock: recovering, pins, parent }, () => this.locks.enterGuarded(name, guard, recover));
        lease.assertHeld(); // lost while recovering: the section must not start either
      }
      const lock = new HeldLock(name, lease, section, kind);
      const value = await lockContext.run({ owner, lock, pins, parent }, () => fn(lock));
      return [value, section];
    } finally {
      pins.exit();
      await pins.ended();
    }
  }

  private reportReleaseFailure(lease: Lease, error: unknown): void {
    this.logger.error(`Could not release ${lease.path} after the locked call failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
