import type { InterruptedSection } from '../recipes/ready-state.js';
import type { SessionState } from '../zookeeper/session-state.js';

/**
 * The `node:diagnostics_channel` names the library publishes on. Every event's `type` starts with
 * its channel's key (`lock.`, `leadership.`, `session.`). Subscribe with
 * `diagnostics_channel.subscribe(ZK_LOCK_CHANNELS.lock, (event) => ...)`.
 */
export const ZK_LOCK_CHANNELS = {
  lock: 'nestjs-zk-lock:lock',
  leadership: 'nestjs-zk-lock:leadership',
  session: 'nestjs-zk-lock:session',
} as const;

export type ZkLockChannel = keyof typeof ZK_LOCK_CHANNELS;

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
  | LockTimeoutEvent
  | LockAbortedEvent
  | LockBusyEvent
  | LockFailedEvent
  | LockRecoveryEvent;

/** Every leadership event names the election, its directory znode and this process's identity. */
interface LeadershipEventBase {
  readonly election: string;
  readonly path: string;
  readonly identity: string;
}

/** This process reports leadership (`isLeader$` emitted true) under `token`. */
export interface LeadershipGainedEvent extends LeadershipEventBase {
  readonly type: 'leadership.gained';
  readonly token: bigint;
}

/** This process stopped reporting leadership (`isLeader$` emitted false), for `reason`. */
export interface LeadershipLostEvent extends LeadershipEventBase {
  readonly type: 'leadership.lost';
  readonly token: bigint | undefined;
  readonly reason: string;
}

/**
 * The election's recovery ran for `interrupted` (a leader, maybe this one, that died or threw
 * mid-section) on the leader with `token`. `unhandled`: no handler is registered, it was marked
 * repaired; `failed`: the handler threw, leadership is not reported and it is retried.
 */
export interface LeadershipRecoveryEvent extends LeadershipEventBase {
  readonly type: 'leadership.recovery';
  readonly token: bigint;
  readonly interrupted: InterruptedSection;
  readonly outcome: 'repaired' | 'failed' | 'unhandled';
  readonly error?: unknown;
}

export type LeadershipEvent = LeadershipGainedEvent | LeadershipLostEvent | LeadershipRecoveryEvent;

/** The module's ZooKeeper session changed state (see `SessionState`). */
export interface SessionStateEvent {
  readonly type: 'session.state';
  readonly state: SessionState;
  readonly previous: SessionState;
  /** Hex id of the session the state refers to (the new one after `connected`). */
  readonly sessionId: string | undefined;
}

export type SessionEvent = SessionStateEvent;

/** Everything `ZkLockEvents.events$` emits and the diagnostics channels carry, discriminated by `type`. */
export type ZkLockEvent = LockEvent | LeadershipEvent | SessionEvent;
