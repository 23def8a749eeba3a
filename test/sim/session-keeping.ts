import type { Invariants } from './invariants.js';

/** Every process: a fault of the servers (or of the network between them) excuses any session's expiry. */
const EVERYONE = '*';

/**
 * The client's half of the session contract (issue 30): a session whose process runs and can
 * reach a quorum does not expire. Pings keep it touched, and a connection that drops or goes
 * silent is replaced, within the read timeout, by one to any server, where the session resumes.
 *
 * A fault that keeps a process from its servers (partition, expire, pause, block) excuses the
 * expiry of that process's session, and a fault of the servers (a member down or lagging, a
 * follower cut off from the leader, a wipe) excuses every session's, each for the fault's length
 * plus two session timeouts and a second (the expiry is told at the next handshake). A cut
 * connection, a lost reply, a stream gone silent for good (blackhole) or out of order (reorder),
 * or a moved session excuses nothing: the client must get over it and keep its session.
 */
export class SessionKeeping {
  private readonly excusedUntil = new Map<string, number>();

  constructor(
    private readonly invariants: Invariants,
    private readonly now: () => number,
    private readonly sessionTimeoutMs: number,
  ) {}

  /** A fault that lasts `ms` keeps `actor` (or, undefined, every process) from a quorum. */
  excuse(actor: string | undefined, ms: number): void {
    const key = actor ?? EVERYONE;
    const until = this.now() + ms + 2 * this.sessionTimeoutMs + 1000;
    this.excusedUntil.set(key, Math.max(until, this.excusedUntil.get(key) ?? 0));
  }

  /** `actor`'s session `sessionId` was reported expired. */
  expired(actor: string, sessionId: string): void {
    const until = Math.max(this.excusedUntil.get(actor) ?? -1, this.excusedUntil.get(EVERYONE) ?? -1);
    if (this.now() <= until) return;
    this.invariants.violate('session-kept', `${actor}: session 0x${sessionId} expired, though no fault kept the process from a quorum for its timeout`);
  }
}
