import { SIM_ACTOR } from './sim-scheduler.js';
/** One follower's quorum connection to the leader, and the follower's touch table. */
class FollowerLink {
    constructor(member, now) {
        this.member = member;
        /** The link delivers nothing (a fault): messages wait, neither end is told. */
        this.cut = false;
        /** The follower gave the leader up (nothing heard for `syncLimit` ticks) and has not rejoined. */
        this.looking = false;
        /** Sessions that sent this follower a request or ping since its last answer to a leader's ping. */
        this.touches = new Set();
        /** Messages both ways, in order, held while the link is cut. */
        this.held = [];
        this.toLeaderAt = 0;
        this.toFollowerAt = 0;
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
    constructor(host, leader, followers, tickMs, syncLimitTicks) {
        this.host = host;
        this.leader = leader;
        this.tickMs = tickMs;
        this.links = new Map();
        this.syncLimitMs = syncLimitTicks * tickMs;
        for (const member of followers)
            this.links.set(member, new FollowerLink(member, host.scheduler.now));
        if (this.links.size > 0)
            this.pingFollowers();
    }
    isLeader(member) {
        return member === this.leader;
    }
    /** The follower's link delivers nothing, or it lost the leader and has not rejoined: its replica applies nothing. */
    isCut(member) {
        const link = this.links.get(member);
        return link !== undefined && (link.cut || link.looking);
    }
    /** The follower lost the leader and serves no client until it rejoins. */
    isLooking(member) {
        return this.links.get(member)?.looking ?? false;
    }
    /** Followers whose link is cut, by member. */
    cutFollowers() {
        return [...this.links.values()].filter((l) => l.cut).map((l) => l.member);
    }
    /** Followers, for faults. */
    followers() {
        return [...this.links.keys()];
    }
    /** A client's request or ping reached `member`: the leader hears of it now, or with the follower's next ping answer. */
    touch(member, record) {
        const link = this.links.get(member);
        if (!link)
            return this.host.touch(record);
        if (!link.looking)
            link.touches.add(record.id);
    }
    /** Runs `action` at the leader: at once on the leader itself, over `member`'s link otherwise. */
    toLeader(member, label, action) {
        const link = this.links.get(member);
        if (!link)
            return action();
        this.send(link, 'leader', label, action);
    }
    /** Runs `action` at `member` once the leader's message reaches it: at once on the leader itself. */
    toFollower(member, label, action) {
        const link = this.links.get(member);
        if (!link)
            return action();
        this.send(link, 'follower', label, () => {
            link.lastHeardAt = this.host.scheduler.now;
            action();
        });
    }
    /** The link of follower `member` stops delivering (silently), until `heal`. */
    cut(member) {
        const link = this.links.get(member);
        if (link)
            link.cut = true;
    }
    /** The link delivers again: held messages go through in order, or a follower that gave up syncs and serves again. */
    heal(member) {
        const link = this.links.get(member);
        if (!link?.cut)
            return;
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
        for (const resend of link.held.splice(0))
            resend();
    }
    /** The member (re)started: it syncs with the leader, unless its link is cut. */
    restarted(member) {
        const link = this.links.get(member);
        if (!link)
            return;
        link.touches.clear();
        link.held.length = 0;
        link.lastHeardAt = this.host.scheduler.now;
        link.looking = link.cut;
    }
    /** One message over the link, after the network delay and in order; held while the link is cut, lost once the follower gave up. */
    send(link, to, label, arrive) {
        if (link.looking)
            return;
        if (link.cut) {
            link.held.push(() => this.send(link, to, label, arrive));
            return;
        }
        const s = this.host.scheduler;
        const at = Math.max(s.now + this.host.latency(), to === 'leader' ? link.toLeaderAt : link.toFollowerAt);
        if (to === 'leader')
            link.toLeaderAt = at;
        else
            link.toFollowerAt = at;
        s.schedule(at - s.now, () => {
            if (link.looking)
                return;
            // Cut while in flight: TCP keeps it with what follows.
            if (link.cut)
                link.held.push(arrive);
            else
                arrive();
        }, label, SIM_ACTOR);
    }
    /** `Leader.lead`: every half tick, each follower is pinged (and each checks it heard from the leader within `syncLimit`). */
    pingFollowers() {
        const s = this.host.scheduler;
        s.schedule(this.tickMs / 2, () => {
            this.pingFollowers();
            for (const link of this.links.values()) {
                if (!link.member.up || link.looking)
                    continue;
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
                            if (record && !record.ended)
                                this.host.touch(record);
                        }
                    });
                });
            }
        }, 'leader pings', SIM_ACTOR);
    }
    /** The follower heard nothing for `syncLimit` ticks: it leaves the quorum and drops its clients; what it held is lost. */
    giveUp(link) {
        link.looking = true;
        link.held.length = 0;
        link.touches.clear();
        this.host.lostLeader(link.member, `heard nothing from the leader for ${Math.round(this.host.scheduler.now - link.lastHeardAt)} ms (syncLimit)`);
    }
}
//# sourceMappingURL=leader-link.js.map