import { LockAbortedError } from '../../errors/lock-aborted.error.js';
import { LockTimeoutError } from '../../errors/lock-timeout.error.js';
import type { InterruptedSection } from '../ready/ready-record.js';

/** Every lock event names the lock and its directory znode (`<root>/locks/<name>`). */
interface LockEventBase {
  readonly name: string;
  readonly path: string;
}

/** An acquisition started (`acquire`, `tryAcquire`, `withLock`, `@WithLock`); one of the events below ends it. */
export interface LockWaitStartedEvent extends LockEventBase {
  readonly type: 'lock.wait-started';
}

/** Granted after `waitMs`. `handoff`: it queued behind another holder or waiter (not granted on the first look). */
export interface LockAcquiredEvent extends LockEventBase {
  readonly type: 'lock.acquired';
  readonly token: bigint;
  readonly waitMs: number;
  readonly handoff: boolean;
}

/** Released by its holder (the delete that hands the lock over has been sent) after `holdMs`; also after a loss. */
export interface LockReleasedEvent extends LockEventBase {
  readonly type: 'lock.released';
  readonly token: bigint;
  readonly holdMs: number;
}

/** The lease may no longer be exclusive: its `signal` aborted with `LockLostError` for `reason`. */
export interface LockLostEvent extends LockEventBase {
  readonly type: 'lock.lost';
  readonly token: bigint;
  readonly reason: string;
}

/** Not granted within `waitMs` (`LockTimeoutError`); the waiter's queue node has been removed. */
export interface LockTimeoutEvent extends LockEventBase {
  readonly type: 'lock.timeout';
  readonly waitMs: number;
}

/** The caller's signal (or shutdown) aborted the wait after `waitMs` (`LockAbortedError`). */
export interface LockAbortedEvent extends LockEventBase {
  readonly type: 'lock.aborted';
  readonly waitMs: number;
  readonly reason: unknown;
}

/**
 * Another process asked this holder to let go (`LockService.requestRelease`): the lease's
 * `releaseRequested` aborted. Only for leases whose holder reads `releaseRequested`.
 */
export interface LockReleaseRequestedEvent extends LockEventBase {
  readonly type: 'lock.release-requested';
  readonly token: bigint;
}

/** Tried once (`tryAcquire`, `onBusy: 'skip' | 'throw'` without `waitMs`) and someone else held or waited. */
export interface LockBusyEvent extends LockEventBase {
  readonly type: 'lock.busy';
}

/** The acquisition failed otherwise (session closed, ZooKeeper error) after `waitMs`. */
export interface LockFailedEvent extends LockEventBase {
  readonly type: 'lock.failed';
  readonly waitMs: number;
  readonly error: unknown;
}

/**
 * A guarded lock's recovery handler ran for `interrupted` (the holder that died or threw
 * mid-section: its identity, token, last checkpoint) on the holder with `token`. `failed`: it threw,
 * the state stays dirty and the call fails with `RecoveryFailedError`.
 */
export interface LockRecoveryEvent extends LockEventBase {
  readonly type: 'lock.recovery';
  readonly token: bigint;
  readonly interrupted: InterruptedSection;
  readonly outcome: 'repaired' | 'failed';
  readonly error?: unknown;
}

export type LockEvent =
  | LockWaitStartedEvent
  | LockAcquiredEvent
  | LockReleasedEvent
  | LockLostEvent
  | LockReleaseRequestedEvent
  | LockTimeoutEvent
  | LockAbortedEvent
  | LockBusyEvent
  | LockFailedEvent
  | LockRecoveryEvent;

/** The channel lock events go to (see `EventSink`). */
export interface LockEventsByChannel {
  lock: LockEvent;
}

/** How a wait that did not end in a grant is reported. */
export function waitFailed(name: string, path: string, waitMs: number, error: unknown): LockEvent {
  if (error instanceof LockTimeoutError) return { type: 'lock.timeout', name, path, waitMs };
  if (error instanceof LockAbortedError) return { type: 'lock.aborted', name, path, waitMs, reason: error.cause };
  return { type: 'lock.failed', name, path, waitMs, error };
}
