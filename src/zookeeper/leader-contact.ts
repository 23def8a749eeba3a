import { ZOOKEEPER_ERROR_CODES } from '../errors/zookeeper.error.js';

/**
 * Which replies prove that the ZooKeeper **leader** still had our session, and as of when.
 *
 * Only the leader expires sessions (`SessionTrackerImpl`): it expires one a session timeout
 * (rounded up to the next tick) after it last *touched* it. The server we talk to may be a
 * follower, and a follower touches a session only in its own table (`LearnerSessionTracker`),
 * which it hands to the leader in its answer to each of the leader's pings (`Learner.ping`; the
 * leader pings every follower each half tick, `Leader.lead`). A follower cut off from the leader
 * goes on answering our pings and local reads until it notices, up to `syncLimit` ticks, while
 * the leader, no longer hearing our touches, expires the session and grants our locks to others.
 * So what the server we talk to answers proves something about the leader only when the request
 * went through the leader:
 *
 * - **Reads and pings** (`getData`, `exists`, `getChildren`, `getAcl`, the C client's pings) are
 *   answered by the server itself: they prove nothing about the leader.
 * - **The handshake** that (re)connected: a new session is created through the leader, and a
 *   follower revalidates a resumed session with the leader (`REVALIDATE`, which touches it) before
 *   it answers. So the leader touched the session after the attempt began.
 * - **A reply to a write or a `sync`** (`create`, `delete`, `setData`, `setAcl`, `sync`, sent at
 *   `s`): the follower forwarded the request to the leader, which checked the session was not
 *   closing (`PrepRequestProcessor`), and the answer came back over the same link. Its own touch
 *   may not have reached the leader (the follower reports it at the next ping, and the link may
 *   fail right after the reply), but every touch the follower recorded a tick before the forward
 *   had: a leader ping reached the follower in between (one leaves every half tick, and a link
 *   that delivers does so within the other half), and the follower's answer to it, carrying the
 *   touch, went up the same TCP stream ahead of our request. So the reply proves that the leader
 *   touched the session after the latest request we sent at least a tick before `s`.
 *   An error the leader decided (NODEEXISTS, BADVERSION, ...) proves as much as a success;
 *   connection loss, a timeout or an expiry prove nothing.
 *
 * The client does not know the server's tick. ZooKeeper grants no session timeout below
 * `minSessionTimeout`, two ticks unless configured otherwise, so half the negotiated timeout
 * bounds the tick: that is the slack (`touchSlackMs`). A server configured with a
 * `minSessionTimeout` below two ticks breaks this bound.
 */
export type RequestRoute = 'leader' | 'local';

/** The requests a follower forwards to the leader; everything else it answers itself. */
const LEADER_ROUTED: ReadonlySet<string> = new Set(['create', 'delete', 'setData', 'setAcl', 'sync']);

export function routeOf(operation: string): RequestRoute {
  return LEADER_ROUTED.has(operation) ? 'leader' : 'local';
}

/**
 * Codes that say nothing the server decided: the request's fate is unknown (connection lost or
 * timed out) or the session is gone. Any other reply, success or error, is an answer.
 */
const { CONNECTIONLOSS, OPERATIONTIMEOUT, SESSIONEXPIRED, CLOSING } = ZOOKEEPER_ERROR_CODES;
const NOT_AN_ANSWER: ReadonlySet<number> = new Set([CONNECTIONLOSS, OPERATIONTIMEOUT, SESSIONEXPIRED, CLOSING]);

/** At most this many send times are kept; dropping the oldest only makes a proof older. */
const MAX_SENDS = 64;

/**
 * The latest moment at which the leader is proven to have touched our session (`provenAt`,
 * monotonic ms), from the replies of one session's requests as described above.
 */
export class LeaderContact {
  private proven = 0;
  /**
   * Send times on the current connection, ascending, at most one per eighth of the slack: a proof
   * picks the latest one a slack before the request it answers, which thinning can only make older.
   */
  private readonly sends: number[] = [];
  private lastLeaderSend = Number.NEGATIVE_INFINITY;

  constructor(private readonly touchSlackMs: () => number) {}

  /** Monotonic ms: the leader touched the session at this time or later. 0 before any proof. */
  get provenAt(): number {
    return this.proven;
  }

  /** When the latest request through the leader was sent (monotonic ms). */
  get lastLeaderSendAt(): number {
    return this.lastLeaderSend;
  }

  /**
   * A handshake begun at `attemptAt` connected: the leader touched the session after that. Touches
   * made on an earlier connection travelled another server's link, which later replies do not vouch for.
   */
  connected(attemptAt: number): void {
    this.proven = Math.max(this.proven, attemptAt);
    this.sends.length = 0;
  }

  sent(route: RequestRoute, at: number): void {
    if (route === 'leader') this.lastLeaderSend = Math.max(this.lastLeaderSend, at);
    const last = this.sends[this.sends.length - 1];
    if (last !== undefined && at - last < this.touchSlackMs() / 8) return;
    if (this.sends.length === MAX_SENDS) this.sends.shift();
    this.sends.push(at);
  }

  /**
   * The reply to `operation`, sent at `sentAt`, came back with `rc`: true when it is a proof (an
   * answer to a request through the leader), which `answered` has then recorded.
   */
  replied(operation: string, sentAt: number, rc: number): boolean {
    if (routeOf(operation) !== 'leader' || NOT_AN_ANSWER.has(rc)) return false;
    this.answered(sentAt);
    return true;
  }

  /** A request through the leader sent at `sentAt` got an answer (not a connection-level failure). */
  answered(sentAt: number): void {
    const bound = sentAt - this.touchSlackMs();
    let touched: number | undefined;
    while (this.sends.length > 0 && this.sends[0]! <= bound) touched = this.sends.shift();
    // Keep the one found: a later proof may need it again (it is the latest old enough so far).
    if (touched !== undefined) {
      this.sends.unshift(touched);
      this.proven = Math.max(this.proven, touched);
    }
  }
}

/** Half the session timeout: see `LeaderContact`. */
export function touchSlackMs(sessionTimeoutMs: number): number {
  return sessionTimeoutMs / 2;
}
