import type { LeadershipEvent } from '../recipes/election/leadership-events.js';
import type { LockEvent } from '../recipes/lock/lock-events.js';
import type { SessionEvent } from '../zookeeper/session-state.js';
import type { EventSink } from './event-sink.js';

// Each event is defined next to what emits it; this is the whole vocabulary, as the public API has it.
export { ZK_LOCK_CHANNELS, type ZkLockChannel } from './event-sink.js';
export type {
  LockAbortedEvent,
  LockAcquiredEvent,
  LockBusyEvent,
  LockEvent,
  LockFailedEvent,
  LockLostEvent,
  LockRecoveryEvent,
  LockReleasedEvent,
  LockReleaseRequestedEvent,
  LockTimeoutEvent,
  LockWaitStartedEvent,
} from '../recipes/lock/lock-events.js';
export type { LeadershipEvent, LeadershipGainedEvent, LeadershipLostEvent, LeadershipRecoveryEvent, LeadershipStepDownEvent } from '../recipes/election/leadership-events.js';
export type { SessionEvent, SessionStateEvent } from '../zookeeper/session-state.js';

/** Everything `ZkLockEvents.events$` emits and the diagnostics channels carry, discriminated by `type`. */
export type ZkLockEvent = LockEvent | LeadershipEvent | SessionEvent;

/** The event type each channel carries. */
export interface ZkLockEventsByChannel {
  lock: LockEvent;
  leadership: LeadershipEvent;
  session: SessionEvent;
}

/** A sink for every channel: what the module's hub is, and what the session, locks and elections are given. */
export type ZkLockEventSink = EventSink<ZkLockEventsByChannel>;
