import type { InterruptedSection } from '../ready/ready-record.js';

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
 * This process was asked to step down (`requestStepDown`, `nestjs-zk-lock step-down`) while its
 * queue node headed the election under `token`: it resigns as `resign()` does (a
 * `leadership.lost` follows if it was reporting leadership) and joins again at the back.
 */
export interface LeadershipStepDownEvent extends LeadershipEventBase {
  readonly type: 'leadership.step-down';
  readonly token: bigint;
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

export type LeadershipEvent = LeadershipGainedEvent | LeadershipLostEvent | LeadershipStepDownEvent | LeadershipRecoveryEvent;

/** The channel leadership events go to (see `EventSink`). */
export interface LeadershipEventsByChannel {
  leadership: LeadershipEvent;
}
