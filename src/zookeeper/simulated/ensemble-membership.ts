import type { LeaderLinks } from './leader-link.js';
import type { ReplicatedLog } from './replicated-log.js';
import { Member } from './server-connection.js';
import type { SimClock } from './sim-clock.js';
import { SIM_ACTOR } from './sim-scheduler.js';

/** What a reconfig needs of the ensemble. */
export interface MembershipHost {
  readonly scheduler: SimClock;
  /** The members, in the order they joined: a reconfig changes this very array (the log applies to it). */
  readonly members: Member[];
  readonly log: ReplicatedLog;
  readonly sequenceStart: number | undefined;
  /** The leader's links to its followers: a new leader has new ones. */
  links: LeaderLinks;
  newLinks(leader: Member, followers: Member[]): LeaderLinks;
  /** Whether `member` is up and in touch with the leader (a reconfig needs its new members synced). */
  synced(member: Member): boolean;
}

/** An incremental reconfig (`ReconfigRequest` with joining and leaving servers): ids of servers to add, ids of members to remove. */
export interface MembershipChange {
  readonly joining?: readonly number[];
  readonly leaving?: readonly number[];
}

/** The quorum and election ports every simulated member lists: only the client address is ever dialed. */
const QUORUM_PORTS = '2888:3888';

/**
 * The ensemble's membership as `/zookeeper/config` shows it, and the dynamic reconfiguration
 * that changes it (`reconfigEnabled`, ZooKeeper 3.5+), as the leader runs an incremental one
 * (`PrepRequestProcessor`, case reconfig): the new configuration, versioned by the reconfig's
 * own zxid, is written to the config node as a setData of version -1 through the log, so every
 * member's replica fires its data watches on it as it applies the entry.
 *
 * A joining server syncs from a snapshot of the leader's tree first (its replica then applies the
 * log from there); a leaving member stops serving once the reconfig committed: its clients'
 * connections close and no client reaches it from then on (the TypeScript client's dial is
 * refused), so a client that knows only retired servers can reach the ensemble no more. When the leader's member leaves, the role moves
 * to the highest id left (the designated leader) and every member drops its clients while the
 * followers sync with it, as after a real reconfig that removes the leader.
 *
 * Deliberate abstractions: a reconfig needs every member of the new configuration up and in touch
 * with the leader (the real leader needs a synced quorum of it: `NewConfigNoQuorum`), and takes
 * effect at once for the retired ones (a real one applies the commit first, then shuts down), and
 * it is the test's call (`SimulatedEnsemble.reconfigure`), not a client's request: the reconfig
 * op (16) stays unserved, as the library never sends it.
 */
export class Membership {
  constructor(private readonly host: MembershipHost) {}

  /** `QuorumMaj.toString` of `members`: `server.<id>=<host>:<quorum>:<election>:participant;<host>:<clientPort>` by id, then `version=<hex>`. */
  static configText(members: readonly Member[], version: bigint): string {
    const lines = [...members].sort((a, b) => a.id - b.id).map((m) => `server.${m.id}=${m.host.slice(0, m.host.lastIndexOf(':'))}:${QUORUM_PORTS}:participant;${m.host}`);
    return `${lines.join('\n')}\nversion=${version.toString(16)}`;
  }

  /** Every member's config node holds the starting membership (see `ReplicatedLog.seedConfig`). */
  seed(): void {
    this.host.log.seedConfig((version) => Buffer.from(Membership.configText(this.host.members, version), 'utf8'));
  }

  /**
   * Commits `change` (false, and nothing changes, when it is refused: an id that cannot join or
   * leave, an empty result, or a member of the new configuration that is down or cut off).
   */
  reconfigure(change: MembershipChange): boolean {
    const { members, log, scheduler } = this.host;
    const joining = change.joining ?? [];
    const leaving = members.filter((m) => change.leaving?.includes(m.id));
    if (leaving.length !== (change.leaving?.length ?? 0)) return false;
    if (joining.some((id) => !Number.isInteger(id) || id < 1 || id > 255 || members.some((m) => m.id === id))) return false;
    const staying = members.filter((m) => !leaving.includes(m));
    if (staying.length + joining.length === 0 || !staying.every((m) => this.host.synced(m))) return false;
    const joined = joining.map((id) => new Member(id, this.host.sequenceStart));
    for (const member of joined) {
      log.join(member);
      members.push(member);
      this.host.links.add(member);
    }
    const next = [...staying, ...joined];
    log.commit(() => {
      const zxid = log.nextZxid();
      return { type: 'reconfig', zxid, time: log.wallTime(), data: Buffer.from(Membership.configText(next, zxid), 'utf8') };
    });
    scheduler.note(`reconfig: members ${next.map((m) => m.id).join(', ')}${leaving.length ? ` (${leaving.map((m) => m.id).join(', ')} retired)` : ''}`, SIM_ACTOR);
    for (const member of leaving) this.retire(member);
    if (leaving.includes(this.host.links.leader)) this.handOver(next);
    return true;
  }

  /** A removed member stops serving: its clients are dropped, and it is no member to dial any more. */
  private retire(member: Member): void {
    member.up = false;
    for (const c of [...member.connections]) c.close('server removed from the ensemble by a reconfig');
    this.host.links.remove(member);
    this.host.members.splice(this.host.members.indexOf(member), 1);
  }

  /** The leader left: the designated leader (the highest id left) takes the role; the followers sync with it, dropping their clients. */
  private handOver(members: readonly Member[]): void {
    const leader = members.reduce((a, b) => (b.id > a.id ? b : a));
    this.host.links.stop();
    this.host.links = this.host.newLinks(leader, members.filter((m) => m !== leader));
    for (const member of members) for (const c of [...member.connections]) c.close(`server ${leader.id} leads after a reconfig removed the leader`);
  }
}
