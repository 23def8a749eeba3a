import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { ElectionClosedError } from '../errors/election-closed.error.js';
import { LeaderService } from '../services/leader.service.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import type { SessionState } from '../zookeeper/session-state.js';
import type { ZkIdentity } from '../zookeeper/types.js';
import { ZkSession } from '../zookeeper/supervised-session.js';

/** Options of one `ZkLockHealthIndicator.isHealthy()` check. */
export interface ZkLockHealthCheckOptions {
  /**
   * Elections whose leadership to report besides those this process already knows (every
   * election LeaderService has created, and the default one when the `election` module option is
   * set). Like `leaderService.election(name)`, naming one creates it. Leadership never affects
   * the status.
   */
  readonly elections?: readonly string[];
}

/** Leadership of one election, as reported in `elections`. */
export interface ZkLockElectionHealth {
  /** This process leads the election right now. */
  readonly isLeader: boolean;
  /** This process is in the election's queue (false after `resign()`, before `join()`). */
  readonly participating: boolean;
}

/** What the indicator reports under its key, next to terminus' `status`. */
export interface ZkLockHealthDetails {
  readonly [key: string]: unknown;
  /** The session supervisor's state (`ZkSession.state`). */
  readonly state: SessionState;
  /** Hex id of the current session (the `ephemeralOwner` of its znodes), null before the first. */
  readonly sessionId: string | null;
  /** The session timeout the server granted (the requested one before the first connection). */
  readonly sessionTimeoutMs: number;
  /**
   * Ms since the server last answered a request of this session (or accepted the connection);
   * null without a connection handle. Pings are invisible to the client library, so an idle
   * healthy session shows a growing value: a diagnostic, not a verdict.
   */
  readonly lastContactAgoMs: number | null;
  /** Leadership per reported election. */
  readonly elections: Readonly<Record<string, ZkLockElectionHealth>>;
  /**
   * Who the server knows this session as (`ip`, `digest`, `x509`…; ZooKeeper's `whoAmI`), to check
   * that authentication took effect. Asked once per session; absent where it cannot be known
   * (`driver: 'native'`, a server before 3.7, not connected, or no answer within a second).
   */
  readonly identities?: readonly ZkIdentity[];
  /** Only while `suspended`: the connection dropped but the session may still be alive. */
  readonly warning?: string;
  /** Only when down: why. */
  readonly message?: string;
}

/** Healthy: requests can be answered. */
const UP_STATES: ReadonlySet<SessionState> = new Set(['connected', 'reconnected']);

/** Why each down state is down. */
const DOWN_REASONS: Partial<Record<SessionState, string>> = {
  connecting: 'no ZooKeeper session established yet',
  lost: 'the leader has not confirmed the session for so long that it may have expired it (disconnected, cut off from the leader, or paused): locks and leadership count as lost',
  expired: 'the ZooKeeper session expired; a new one is being created',
  closed: 'the ZooKeeper session is closed',
};

/**
 * A `@nestjs/terminus` health indicator for the module's ZooKeeper session.
 *
 * - `up` while the session is `connected` or `reconnected`;
 * - `up` with a `warning` while `suspended`: the connection dropped but the session is still
 *   alive on the server (locks stay valid, waiters keep their place), and the client is trying the
 *   other servers. Restarting the process then would only make things worse;
 * - `down` when `lost` (the server may have expired the session: leases were revoked), `expired`,
 *   `closed`, or `connecting` (no session yet).
 *
 * Leadership is reported (`elections`) but never makes the check fail: a follower is healthy.
 * Needs `TerminusModule` in the module that provides it, and `ZkLockModule` visible there
 * (`isGlobal: true`, or imported by that module).
 */
@Injectable()
export class ZkLockHealthIndicator {
  constructor(
    private readonly healthIndicatorService: HealthIndicatorService,
    private readonly session: ZkSession,
    private readonly leaderService: LeaderService,
    @Inject(ZK_LOCK_OPTIONS) private readonly options: ResolvedZkLockOptions,
  ) {}

  /**
   * The session's health under `key` (default `zookeeper`). Sends no request but the session's
   * one `whoAmI` (see `identities`), and waits at most a second for it.
   */
  async isHealthy<const Key extends string = 'zookeeper'>(
    key: Key = 'zookeeper' as Key,
    options: ZkLockHealthCheckOptions = {},
  ): Promise<HealthIndicatorResult<Key>> {
    const indicator = this.healthIndicatorService.check(key);
    const state = this.session.state;
    const details: ZkLockHealthDetails = {
      state,
      sessionId: this.session.sessionId ?? null,
      sessionTimeoutMs: this.session.sessionTimeoutMs,
      lastContactAgoMs: this.session.lastContactAgoMs ?? null,
      elections: this.electionHealth(options.elections ?? []),
    };
    if (UP_STATES.has(state)) {
      const identities = await this.session.sessionIdentities();
      return indicator.up(identities ? { ...details, identities } : details);
    }
    if (state === 'suspended') {
      return indicator.up({ ...details, warning: 'connection to ZooKeeper lost; the session may still be alive and the client is reconnecting' });
    }
    return indicator.down({ ...details, message: DOWN_REASONS[state] ?? `ZooKeeper session ${state}` });
  }

  private electionHealth(extra: readonly string[]): Record<string, ZkLockElectionHealth> {
    // Every election this process knows, plus any the caller names (which creates and joins them).
    const names = new Set<string>([...this.leaderService.electionNames(), ...extra]);
    if (this.options.electionConfigured) names.add(this.options.election.name);
    const result: Record<string, ZkLockElectionHealth> = {};
    for (const name of [...names].sort()) {
      let election: ReturnType<LeaderService['election']>;
      try {
        election = this.leaderService.election(name);
      } catch (error) {
        // Shutting down: LeaderService creates no new election, and one we never took part in has nothing to report.
        if (error instanceof ElectionClosedError) continue;
        throw error;
      }
      result[name] = { isLeader: election.isLeader, participating: election.isParticipating };
    }
    return result;
  }
}
