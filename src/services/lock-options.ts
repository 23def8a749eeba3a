import { describeValue } from '../errors/describe-value.js';
import { validateDuration } from '../errors/duration-option.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { refuseUnknownKeys } from '../errors/known-keys.js';
import { ACQUIRE_OPTION_KEYS, type AcquireOptions } from '../recipes/lock/acquire-options.js';
import type { RecoveryHandler } from '../recipes/ready/ready-state.js';
import { validatePermitRequest, type PermitRequest } from '../recipes/semaphore/permit-driver.js';

// The options of LockService's locked calls, and their checks (also made by the decorators, at decoration time).

export type OnBusy = 'wait' | 'skip' | 'throw';

export interface WithLockOptions extends AcquireOptions {
  /**
   * When the lock is not granted at once (or within `waitMs`): `wait` (default) keeps waiting,
   * then throws `LockTimeoutError`; `skip` returns undefined without running; `throw` throws
   * `LockBusyError`. With `skip` / `throw` and no `waitMs`, the lock is tried once, never queued,
   * and a disconnected session rejects it with `ZooKeeperUnreachableError` instead of waiting.
   */
  readonly onBusy?: OnBusy;
  /**
   * Makes the lock guarded: when the previous holder died or threw mid-call, this runs first
   * with what it left (holder, token, last checkpoint). See README "Recovery".
   */
  readonly recover?: RecoveryHandler;
}

/** Options of `withReadLock` and `withWriteLock`: those of `withLock` but recovery. */
export type ReadWriteLockOptions = Omit<WithLockOptions, 'recover'>;

/** A semaphore's permits, as every acquisition names them. */
export interface SemaphorePermits {
  /** The semaphore's capacity: at most this many permits are held across the cluster. Every user must give the same. */
  readonly permits: number;
  /** Permits to take at once, all or nothing (1 to `permits`). Default 1. */
  readonly take?: number;
}

/** Options of `withSemaphore`: its permits, and those of `withLock` but recovery. */
export interface SemaphoreOptions extends SemaphorePermits, ReadWriteLockOptions {}

const ON_BUSY: readonly OnBusy[] = ['wait', 'skip', 'throw'];

// The keys each kind of call knows (`satisfies`: the compiler checks each list against its type).
// `recover` is known to every locked call, so that those without recovery refuse it by name (`refuseRecovery`).
const PERMIT_KEYS = Object.keys({ permits: 1, take: 1 } satisfies Record<keyof SemaphorePermits, 1>);
const WITH_LOCK_KEYS = Object.keys({ waitMs: 1, signal: 1, onBusy: 1, recover: 1 } satisfies Record<keyof WithLockOptions, 1>);
/** What `withSemaphore` and `@WithSemaphore` know: its permits and a locked call's options. */
export const SEMAPHORE_OPTION_KEYS: readonly string[] = [...PERMIT_KEYS, ...WITH_LOCK_KEYS];

/** The request of `permits` (`known`: the keys the object may carry, by default only the permits'). */
export function validateSemaphorePermits(permits: SemaphorePermits, known: readonly string[] = PERMIT_KEYS): PermitRequest {
  if (permits === null || typeof permits !== 'object') throw new InvalidOptionsError('options', 'expected an object with the semaphore\'s permits, e.g. { permits: 4 }');
  refuseUnknownKeys(permits, known);
  return validatePermitRequest({ permits: permits.permits, take: permits.take === undefined ? 1 : permits.take });
}

/** Throws `InvalidOptionsError` naming the first bad field, or a key not in `known` (by default `waitMs` and `signal`). */
export function validateAcquireOptions(options: AcquireOptions, known: readonly string[] = ACQUIRE_OPTION_KEYS): void {
  if (options === null || typeof options !== 'object') throw new InvalidOptionsError('options', 'expected an object');
  refuseUnknownKeys(options, known);
  const { waitMs, signal } = options;
  if (waitMs !== undefined) validateDuration('waitMs', waitMs, { unbounded: true });
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new InvalidOptionsError('signal', 'expected an AbortSignal');
}

/**
 * Throws `InvalidOptionsError` naming the first bad field, or a key not in `known` (by default a
 * locked call's). Also used by `@WithLock` at decoration time.
 */
export function validateWithLockOptions(options: WithLockOptions, known: readonly string[] = WITH_LOCK_KEYS): void {
  validateAcquireOptions(options, known);
  if (options.onBusy !== undefined && !ON_BUSY.includes(options.onBusy)) {
    throw new InvalidOptionsError('onBusy', `expected one of ${ON_BUSY.join(', ')}, got ${describeValue(options.onBusy)}`);
  }
  if (options.recover !== undefined && typeof options.recover !== 'function') {
    throw new InvalidOptionsError('recover', 'expected a function');
  }
}

/** Throws `InvalidOptionsError` when `options` carry a recovery handler where none can run (`what`: e.g. "withLocks"). */
export function refuseRecovery(options: object, what: string): void {
  if ((options as WithLockOptions).recover !== undefined) {
    throw new InvalidOptionsError('recover', `${what} runs no recovery: guard a single lock with withLock(name, fn, { recover })`);
  }
}
