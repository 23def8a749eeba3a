import type { Member } from './server-connection.js';
import type { SessionRecord } from './session-tracker.js';
import type { SimClock } from './sim-clock.js';
import { SIM_ACTOR } from './sim-scheduler.js';

/** What the links need of the ensemble. */
export interface LinkHost {
  readonly scheduler: SimClock;
  latency(): number;
  /** The leader's session record of `id`, if it has one. */
  session(id: bigint): SessionRecord | undefined;
  /** The leader heard from the session (a touch of its tracker). */
  touch(record: SessionRecord): void;
  /** The follower gave the leader up: it closes its clients' connections. */
  lostLeader(member: Member, why: string): void;
  /** The follower is back in sync with the leader: it applies what it missed. */
  rejoined(member: Member): void;
}

/** One follower's quorum connection to the leader, and the follower's touch table. */
class FollowerLink {
  /** The link delivers nothing (a fault): messages wait, neither end is told. */
  cut = false;
  /** The follower gave the leader up (nothing heard for `syncLimit` ticks) and has not rejoined. */
  looking = false;
  /** When the follower last heard from the leader (a ping, a commit, an answer). */
  lastHeardAt: number;
  /** Sessions that sent this follower a request or ping since its last answer to a leader's ping. */
  touches = new Set<bigint>();
  /** Messages both ways, in order, held while the link is cut. */
  readonly held: (() => void)[] = [];
  toLeaderAt = 0;
  toFollowerAt = 0;

  constructor(
    readonly member: Member,
    now: number,
  ) {
    this.lastHeardAt = now;
  }
}

/**
 * The leader's quorum links to its followers, as ZooKeeper runs them: the only way a client's
 * liveness and its writes reach the leader from a follower.
 * - A follower records a touch for each request or ping a client sends it
 *   (`ZooKeeperServer.submitRequestNow` -> `touch`, kept in `LearnerSessionTracker`'s touch table);
 *   the leader pings every follower every half tick (`Leader.lead`), and the follower answers with
 *   its touch table, which it then empties (`Learner.ping`); the leader touches those sessions on
 *   arrival (`LearnerHandler`, case PING). So a session lives at the leader one timeout past the
 *   last touch its follower *forwarded*, not past the client's last packet.
 * - Writes, syncs, session creation and revalidation (`REVALIDATE`) go to the leader over the link,
 *   in order; reads and pings the follower answers itself.
 * - A cut link delivers nothing either way and neither end is told (a silent network fault): the
 *   follower goes on answering its clients' pings and reads from a replica that applies nothing,
 *   until it has heard nothing for `syncLimit` ticks (the socket timeout `Learner` sets, checked
 *   here every half tick); then it drops its clients and serves nobody until the link heals and it
 *   syncs again. Healed sooner, the held messages go through in order.
 * The leader itself is the member `leader`; its clients' requests touch the tracker directly.
 */
export class LeaderLinks {
  private readonly links = new Map<Member, FollowerLink>();
  private readonly syncLimitMs: number;
  /** A leader that gave its role up (a reconfig removed it) pings nobody and relays nothing more. */
  private stopped = false;
  /** Whether the half-tick pings run (a lone leader has nobody to ping until a member joins). */
  private pinging = false;

  constructor(
    private readonly host: LinkHost,
    readonly leader: Member,
    followers: readonly Member[],
    private readonly tickMs: number,
    syncLimitTicks: number,
  ) {
    this.syncLimitMs = syncLimitTicks * tickMs;
    for (const member of followers) this.links.set(member, new FollowerLink(member, host.scheduler.now));
    if (this.links.size > 0) this.pingFollowers();
  }

  isLeader(member: Member): boolean {
    return member === this.leader;
  }

  /** The follower's link delivers nothing, or it lost the leader and has not rejoined: its replica applies nothing. */
  isCut(member: Member): boolean {
    const link = this.links.get(member);
    return link !== undefined && (link.cut || link.looking);
  }

  /** The follower lost the leader and serves no client until it rejoins. */
  isLooking(member: Member): boolean {
    return this.links.get(member)?.looking ?? false;
  }

  /** Followers whose link is cut, by member. */
  cutFollowers(): Member[] {
    return [...this.links.values()].filter((l) => l.cut).map((l) => l.member);
  }

  /** Followers, for faults. */
  followers(): Member[] {
    return [...this.links.keys()];
  }

  /** A client's request or ping reached `member`: the leader hears of it now, or with the follower's next ping answer. */
  touch(member: Member, record: SessionRecord): void {
    const link = this.links.get(member);
    if (!link) return this.host.touch(record);
    if (!link.looking) link.touches.add(record.id);
  }

  /** Runs `action` at the leader: at once on the leader itself, over `member`'s link otherwise. */
  toLeader(member: Member, label: string, action: () => void): void {
    const link = this.links.get(member);
    if (!link) return action();
    this.send(link, 'leader', label, action);
  }

  /** Runs `action` at `member` once the leader's message reaches it: at once on the leader itself. */
  toFollower(member: Member, label: string, action: () => void): void {
    const link = this.links.get(member);
    if (!link) return action();
    this.send(link, 'follower', label, () => {
      link.lastHeardAt = this.host.scheduler.now;
      action();
    });
  }

  /** A member that joined (a reconfig) follows: it synced with the leader just now. */
  add(member: Member): void {
    this.links.set(member, new FollowerLink(member, this.host.scheduler.now));
    if (!this.pinging) this.pingFollowers();
  }

  /** A follower that left (a reconfig): what was on its link is lost with it. */
  remove(member: Member): void {
    const link = this.links.get(member);
    if (link) link.looking = true;
    this.links.delete(member);
  }

  /** The leader gives its role up: every link goes, with what was on it (the followers sync with the next leader). */
  stop(): void {
    this.stopped = true;
    for (const member of [...this.links.keys()]) this.remove(member);
  }

  /** The link of follower `member` stops delivering (silently), until `heal`. */
  cut(member: Member): void {
    const link = this.links.get(member);
    if (link) link.cut = true;
  }

  /** The link delivers again: held messages go through in order, or a follower that gave up syncs and serves again. */
  heal(member: Member): void {
    const link = this.links.get(member);
    if (!link?.cut) return;
    link.cut = false;
    const s = this.host.scheduler;
    if (link.looking) {
      link.looking = false;
      link.lastHeardAt = s.now;
      s.note(`server ${member.id} rejoins the leader`, SIM_ACTOR);
      return this.host.rejoined(member);
    }
    s.note(`server ${member.id}'s link to the leader delivers again (${link.held.length} messages held)`, SIM_ACTOR);
    this.host.rejoined(member);
    for (const resend of link.held.splice(0)) resend();
  }

  /** The member (re)started: it syncs with the leader, unless its link is cut. */
  restarted(member: Member): void {
    const link = this.links.get(member);
    if (!link) return;
    link.touches.clear();
    link.held.length = 0;
    link.lastHeardAt = this.host.scheduler.now;
    link.looking = link.cut;
  }

  /** One message over the link, after the network delay and in order; held while the link is cut, lost once the follower gave up. */
  private send(link: FollowerLink, to: 'leader' | 'follower', label: string, arrive: () => void): void {
    if (link.looking) return;
    if (link.cut) {
      link.held.push(() => this.send(link, to, label, arrive));
      return;
    }
    const s = this.host.scheduler;
    const at = Math.max(s.now + this.host.latency(), to === 'leader' ? link.toLeaderAt : link.toFollowerAt);
    if (to === 'leader') link.toLeaderAt = at;
    else link.toFollowerAt = at;
    s.schedule(at - s.now, () => {
      if (link.looking) return;
      // Cut while in flight: TCP keeps it with what follows.
      if (link.cut) link.held.push(arrive);
      else arrive();
    }, label, SIM_ACTOR);
  }

  /** `Leader.lead`: every half tick, each follower is pinged (and each checks it heard from the leader within `syncLimit`). */
  private pingFollowers(): void {
    this.pinging = true;
    const s = this.host.scheduler;
    s.schedule(this.tickMs / 2, () => {
      if (this.stopped) return;
      this.pingFollowers();
      for (const link of this.links.values()) {
        if (!link.member.up || link.looking) continue;
        if (s.now - link.lastHeardAt >= this.syncLimitMs) {
          this.giveUp(link);
          continue;
        }
        this.toFollower(link.member, 'leader ping', () => {
          // `Learner.ping`: the answer carries the touch table, which starts afresh.
          const touched = [...link.touches];
          link.touches.clear();
          this.toLeader(link.member, 'ping answer', () => {
            for (const id of touched) {
              const record = this.host.session(id);
              if (record && !record.ended) this.host.touch(record);
            }
          });
        });
      }
    }, 'leader pings', SIM_ACTOR);
  }

  /** The follower heard nothing for `syncLimit` ticks: it leaves the quorum and drops its clients; what it held is lost. */
  private giveUp(link: FollowerLink): void {
    link.looking = true;
    link.held.length = 0;
    link.touches.clear();
    this.host.lostLeader(link.member, `heard nothing from the leader for ${Math.round(this.host.scheduler.now - link.lastHeardAt)} ms (syncLimit)`);
  }
}
