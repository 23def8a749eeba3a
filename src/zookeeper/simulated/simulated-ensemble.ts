import { ZOOKEEPER_ERROR_CODES as RC } from '../../errors/zookeeper.error.js';
import type { NativeZooKeeperConstructor } from '../native-binding.js';
import type { ZkAcl } from '../types.js';
import type { SimClock } from './sim-clock.js';
import { SIM_ACTOR } from './sim-scheduler.js';
import { Membership, type MembershipChange } from './ensemble-membership.js';
import { LeaderLinks, type LinkHost } from './leader-link.js';
import { NetworkPartitions } from './network-partitions.js';
import { ReplicatedLog } from './replicated-log.js';
import { SessionTracker, type SessionRecord } from './session-tracker.js';
import { Member, ServerConnection, type ClientPacket, type ConnectionClient, type ConnectionHost, type Handshake, type HandshakeRequest } from './server-connection.js';
import { SimulatedHandle, type HandleHost } from './simulated-handle.js';
import type { MultiReply } from './frame-codec.js';
import { simulatedDialer } from './simulated-link.js';
import type { Dialer } from '../protocol/server-link.js';
import { parentOf } from '../znode-path.js';
import { CONTAINER_OWNER, ZkFault, type Asker, type PersistentNode, type ResentWatches, type SimStat, type WriteRequest } from './znode-tree.js';

export interface SimulatedEnsembleOptions {
  /** The members' server ids (`myid`, 1–255): a session id's top byte is its first server's id. Default [1, 2, 3]. */
  readonly serverIds?: readonly number[];
  /** The server's tick: sessions expire on tick boundaries. Default 500 (as the tests' servers). */
  readonly tickMs?: number;
  /** Bounds the server clamps a requested session timeout to. Default 2 and 20 ticks. */
  readonly minSessionTimeoutMs?: number;
  readonly maxSessionTimeoutMs?: number;
  /** How often emptied containers are swept (`znode.container.checkIntervalMs`). Default 1000. */
  readonly containerCheckMs?: number;
  /** `jute.maxbuffer`: a larger request makes the server drop the connection. Default 0xfffff. */
  readonly maxBufferBytes?: number;
  /** One-way network delay between a client and a server, ms. Default [0.05, 0.5]. */
  readonly latencyMs?: readonly [number, number];
  /** Delay between the leader's commit and a follower applying it, ms. Default [0, 0.3]. */
  readonly applyDelayMs?: readonly [number, number];
  /**
   * `syncLimit`: a follower that heard nothing from the leader for this many ticks drops its
   * clients. Default 5, as ZooKeeper's sample configuration and the tests' servers.
   */
  readonly syncLimitTicks?: number;
  /** Where every directory's sequence counter (its child-create count) starts: near 2^31 the suffixes wrap to negative. Default 0. */
  readonly sequenceStart?: number;
  /**
   * The zxid the log counts on from (its top 32 bits the epoch). Default epoch 1, counter 0. A
   * server that restarts starts past the last run's zxids, as a new ZooKeeper leader takes a new
   * epoch, so that a client of the last run is not refused as by a server behind its last zxid.
   */
  readonly zxidStart?: bigint;
  /**
   * Dynamic reconfiguration (`reconfigEnabled`): `/zookeeper/config` lists the members with their
   * client addresses (as the tests' reconfig-enabled servers do), and `reconfigure` changes them.
   * Without it the config node is empty, as on a standalone server.
   */
  readonly reconfigEnabled?: boolean;
  /** The wall clock of the nodes' ctime and mtime. Default: 2026-01-01 plus the scheduler's time (the same in every run of a seed). */
  readonly wallClock?: () => number;
}

// Why this file is long: the server's request path (handshake, the in-order serving of one session's requests, reads, writes
// through the log) and the fault API act on the same members, sessions and connections, and a fault is
// only as good as its exact place in that path. What stands alone is in its own file: the log
// (`ReplicatedLog`), the session tracker, the leader's links to its followers, the partitions, the
// connections and the data tree.

/**
 * A simulated ZooKeeper ensemble on a `SimScheduler`: one leader's log in zxid order, followers'
 * replicas that apply it with a delay (and may lag, so a read can be stale until `sync`), sessions
 * with ids carrying the server id in their top byte, expired by the leader alone on the tick after
 * the timeout without a touch, the leader's links to its followers (`LeaderLinks`: a follower's
 * clients are touched at the leader only through the follower's answers to the leader's half-tick
 * pings; writes, syncs, session creation and revalidation go to the leader over the link, reads
 * and pings are answered by the follower; a follower cut off from the leader serves pings and reads
 * until `syncLimit` ticks pass while the leader expires its clients' sessions), one-shot data,
 * exists and child watches and persistent (and recursive) ones (`WatchTables`) fired by the replica
 * a client is connected to, before the reply to any later read that shows the change, and only to
 * a session that may read the node, `SetWatches` on reconnection, ACLs, containers swept on the
 * simulated clock, sequence counters that may start near 2^31 (to wrap mid-run), with
 * `reconfigEnabled` the membership in `/zookeeper/config` and reconfigs that add servers and retire
 * members (`Membership`), and the faults a test wants at exact points.
 *
 * Clients reach it through `dialer`, simulated sockets that speak the wire protocol to the
 * TypeScript client (`ProtocolHandle`, the default driver of `ZkSession`), or through `binding`, a
 * stand-in for the `zookeeper` package's native binding (`ZooKeeperHandle`): both run unchanged.
 *
 * Deliberate abstractions: the leader's role (its log, session tracker and pings) is not one that
 * fails: the member that hosts it (the highest id) can stop, losing its clients, but the role goes
 * on without an election (it moves only when a reconfig retires its member); at most a minority of followers is cut off from it at once (the leader
 * keeps its quorum); a server never closes a connection for being idle (ZooKeeper's NIO server does,
 * on 10 s boundaries, past the session timeout); a member that is down loses its connections at once (a silent cut is `partition`),
 * `getAcl` needs READ or ADMIN, only the `digest` auth scheme and `world`/`digest`/`auth` ACLs
 * exist, and there are no TTL nodes, no multiRead, no whoAmI, no quotas (multi and addWatch are
 * served to the TypeScript client's frames and the dev server; the simulated C client has neither).
 */
export class SimulatedEnsemble implements ConnectionHost, HandleHost {
  readonly members: Member[];
  /** The leader's log, and the members' replicas applying it. */
  private readonly log: ReplicatedLog;
  private readonly network: NetworkPartitions;
  private readonly sessions: SessionTracker;
  /** The leader's links to the followers: touch forwarding, relayed requests, and the fault of a cut-off follower. A new leader has new ones. */
  private links: LeaderLinks;
  /** The members as `/zookeeper/config` lists them, and reconfigs; undefined without `reconfigEnabled`. */
  private readonly membership: Membership | undefined;
  readonly tickMs: number;
  private readonly minTimeout: number;
  private readonly maxTimeout: number;
  readonly maxBufferBytes: number;
  private readonly latencyRange: readonly [number, number];
  /** Sessions whose next write is refused with SESSIONMOVED (a fault). */
  private readonly movedOnce = new Set<bigint>();
  /** Every handle ever opened, for faults and checks by actor. */
  readonly handles = new Set<SimulatedHandle>();
  /**
   * The C client binding over this ensemble: `new ZooKeeperHandle({ ..., binding })`. A handle
   * belongs to the actor that creates it (its replies and watches are that actor's steps).
   */
  readonly binding: NativeZooKeeperConstructor;
  /**
   * Simulated sockets for the TypeScript client: `new ProtocolHandle({ ..., dialer })` (or
   * `ZkSession`'s `dialer`). A link belongs to the actor that dials it (see `SimulatedLink`).
   */
  readonly dialer: Dialer = simulatedDialer(this);

  constructor(
    readonly scheduler: SimClock,
    options: SimulatedEnsembleOptions = {},
  ) {
    this.members = (options.serverIds ?? [1, 2, 3]).map((id) => new Member(id, options.sequenceStart));
    this.tickMs = options.tickMs ?? 500;
    this.minTimeout = options.minSessionTimeoutMs ?? 2 * this.tickMs;
    this.maxTimeout = options.maxSessionTimeoutMs ?? 20 * this.tickMs;
    this.maxBufferBytes = options.maxBufferBytes ?? 0xfffff;
    this.latencyRange = options.latencyMs ?? [0.05, 0.5];
    this.log = new ReplicatedLog(scheduler, this.members, options.applyDelayMs ?? [0, 0.3], options.sequenceStart, (member) => this.links.isCut(member), options.zxidStart, options.wallClock);
    this.network = new NetworkPartitions(scheduler);
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const ensemble = this;
    this.binding = class extends SimulatedHandle {
      constructor(config: Record<string, unknown>) {
        super(ensemble, config);
        ensemble.handles.add(this);
      }
    };
    this.sessions = new SessionTracker(scheduler, this.tickMs, () => this.hasQuorum, (record) => this.expire(record, 'timed out'));
    // The leader: the member with the highest id, as a fresh ensemble's election picks it (FastLeaderElection breaks zxid ties by sid).
    const leader = this.members.reduce((a, b) => (b.id > a.id ? b : a));
    const newLinks = (lead: Member, followers: Member[]) => new LeaderLinks(this.linkHost(), lead, followers, this.tickMs, options.syncLimitTicks ?? 5);
    this.links = newLinks(leader, this.members.filter((m) => m !== leader));
    this.membership = options.reconfigEnabled ? this.startMembership(options.sequenceStart, newLinks) : undefined;
    this.sweepContainers(options.containerCheckMs ?? 1000);
  }

  /** `host:port,...` of every member. */
  get connectString(): string {
    return this.members.map((m) => m.host).join(',');
  }

  member(host: string): Member | undefined {
    return this.members.find((m) => m.host === host);
  }

  latency(): number {
    const [min, max] = this.latencyRange;
    return min + this.scheduler.random.float() * (max - min);
  }

  /** A quorum of members is up and in touch with the leader: without one, no member serves. */
  get hasQuorum(): boolean {
    return this.members.filter((m) => m.up && !this.links.isCut(m)).length * 2 > this.members.length;
  }

  /** The leader's zxid: the last one it assigned. */
  get lastZxid(): bigint {
    return this.log.primary.lastZxid;
  }

  // ------------------------------------------------------------------ the client's side calls these

  /** A client opens a TCP connection to `member` and sends its handshake. */
  handshake(
    member: Member,
    handle: ConnectionClient,
    request: HandshakeRequest,
    answer: (connection: ServerConnection, result: Handshake) => void,
    refused: () => void,
  ): void {
    const s = this.scheduler;
    s.schedule(this.latency(), () => {
      // A member without a quorum, or one behind what the client already saw (a server restarted
      // with an empty data directory, a lagging follower), refuses: the client tries another.
      if (!member.up || !this.hasQuorum || this.links.isLooking(member) || request.lastZxidSeen > member.tree.lastZxid) {
        s.note(`server ${member.id} refuses ${handle.describe()} (seen 0x${request.lastZxidSeen.toString(16)}, has 0x${member.tree.lastZxid.toString(16)})`, SIM_ACTOR);
        s.schedule(this.latency(), refused, 'refused', handle.actor);
        return;
      }
      const connection = new ServerConnection(member, handle, this);
      for (const id of request.ids) connection.authenticate(id);
      member.connections.add(connection);
      const timeoutMs = Math.min(this.maxTimeout, Math.max(this.minTimeout, request.timeoutMs));
      if (request.session !== 0n) {
        // A follower revalidates the session at the leader, which touches it (Learner.validateSession, Leader.revalidateSession).
        this.links.toLeader(member, 'revalidate', () => {
          const record = this.sessions.get(request.session);
          const valid = record !== undefined && !record.ended && record.password === request.password;
          if (valid && connection.open) this.attach(record, connection);
          this.links.toFollower(member, 'revalidated', () => {
            if (!valid) {
              // The server answers an invalid session (a ConnectResponse with timeout 0), then
              // closes the connection once that is written (ZooKeeperServer.finishSessionInit): the
              // client reads the answer, and only then the close, and reports the session expired.
              connection.reply(() => answer(connection, { ok: false, expired: true }), true);
              connection.close('session expired', true);
              return;
            }
            connection.reply(() => answer(connection, { ok: true, session: record.id, password: record.password, timeoutMs: record.timeoutMs }));
          });
        });
        return;
      }
      // A new session, made through the leader: its id carries the id of the server that made it in its top byte.
      this.links.toLeader(member, 'create session', () => {
        const record = this.sessions.open(member.id, timeoutMs);
        const id = record.id;
        if (connection.open) this.attach(record, connection);
        // Creating a session is a transaction: the reply comes once this member applied it.
        const index = this.log.commit(() => ({ type: 'createSession', zxid: this.log.nextZxid(), time: this.log.wallTime(), session: id }));
        this.log.afterApply(member, index, () =>
          connection.reply(() => answer(connection, { ok: true, session: id, password: record.password, timeoutMs })),
        );
      });
    }, 'handshake', SIM_ACTOR);
  }

  /** A packet reached the server over `connection` (see `ServerConnection.send`). */
  receive(connection: ServerConnection, packet: ClientPacket): void {
    const member = connection.member;
    if (!member.up || !this.hasQuorum) return connection.close('no quorum');
    if (packet.bytes > this.maxBufferBytes) return connection.close(`packet of ${packet.bytes} bytes exceeds jute.maxbuffer`);
    const record = connection.session === undefined ? undefined : this.sessions.get(connection.session);
    if (record && !this.endedAt(member, record)) this.links.touch(member, record);
    connection.enqueue(packet);
  }

  /** Answers one request; `done` lets the next one of the session through. */
  serve(connection: ServerConnection, packet: ClientPacket, done: () => void): void {
    const member = connection.member;
    const record = this.sessions.get(connection.session!);
    const asker: Asker = { session: connection.session!, ids: connection.ids };
    if (!record || this.endedAt(member, record)) {
      connection.close('session expired');
      return done();
    }
    const request = packet.request;
    switch (request.op) {
      case 'ping':
        connection.reply(() => packet.answer(0, undefined, member.tree.lastZxid));
        return done();
      case 'auth':
        connection.authenticate(request.id);
        connection.reply(() => packet.answer(0, undefined, member.tree.lastZxid));
        return done();
      case 'closeSession':
        this.links.toLeader(member, 'close session', () => {
          record.ended = true;
          const index = this.log.commit(() => this.log.primary.closeSession(record.id, this.log.nextZxid(), this.log.wallTime()));
          this.log.afterApply(member, index, () => {
            // The server's last words on this connection: it answers, then closes (`NIOServerCnxn.sendCloseSession`).
            connection.reply(() => packet.answer(0, undefined, member.tree.lastZxid), true);
            connection.close('session closed', true);
            done();
          });
        });
        return;
      case 'setWatches':
        // In order with the session's other requests: the events it fires go out before its reply.
        this.setWatches(connection, request.relativeZxid, request.watches);
        connection.reply(() => packet.answer(0, undefined, member.tree.lastZxid));
        return done();
      case 'unimplemented':
        connection.reply(() => packet.answer(RC.UNIMPLEMENTED, undefined, member.tree.lastZxid));
        return done();
      case 'multi':
        // A write: relayed to the leader, checked and committed there as one transaction, answered once this member applied it.
        this.scheduler.schedule(this.latency(), () => this.links.toLeader(member, 'relay', () => {
          let rc = 0;
          let value: MultiReply | undefined;
          let index = this.log.length;
          if (record.ended) rc = RC.SESSIONEXPIRED;
          else if (record.owner !== member || this.movedOnce.delete(record.id)) rc = RC.SESSIONMOVED;
          else {
            const committed = this.log.commitMulti(request.ops.map((op) => op.write), asker);
            index = committed.index;
            value = { opCodes: request.ops.map((op) => op.opCode), outcome: committed.outcome };
          }
          this.log.afterApply(member, index, () => {
            connection.reply(() => packet.answer(rc, value, member.tree.lastZxid));
            done();
          });
        }), 'relay', SIM_ACTOR);
        return;
      case 'getEphemerals':
        // A read of this member's replica (`FinalRequestProcessor`: the session's ephemerals, filtered by prefix).
        connection.reply(() => packet.answer(0, member.tree.ephemeralsOf(record.id, request.prefix), member.tree.lastZxid));
        return done();
      case 'addWatch':
        // No node needed, no ACL checked (`FinalRequestProcessor`): what the session may not read, it is not told of.
        member.tree.addWatch(request.path, record.id, request.recursive);
        connection.reply(() => packet.answer(0, undefined, member.tree.lastZxid));
        return done();
      case 'removeWatches': {
        // The watches are this member's (its clients'): no watch of the session at `path` is NOWATCHER.
        const found = member.tree.watchesOf(record.id, request.path, request.type, request.remove);
        connection.reply(() => packet.answer(found ? 0 : RC.NOWATCHER, undefined, member.tree.lastZxid));
        return done();
      }
      case 'getData':
      case 'exists':
      case 'getChildren':
      case 'getAcl':
        this.serveRead(connection, packet, asker);
        return done();
      case 'sync':
        // The leader answers a sync in its log order: once this member applied everything before it.
        this.scheduler.schedule(this.latency(), () => this.links.toLeader(member, 'sync', () => {
          this.log.afterApply(member, this.log.length, () => {
            connection.reply(() => packet.answer(0, request.path, member.tree.lastZxid));
            done();
          });
        }), 'sync', SIM_ACTOR);
        return;
      default: {
        // A write: relayed to the leader, checked and committed there, answered by this member
        // once it applied the entry. A failed write is committed too (an error transaction).
        this.scheduler.schedule(this.latency(), () => this.links.toLeader(member, 'relay', () => {
          let rc = 0;
          let value: unknown;
          let index = this.log.length;
          if (record.ended) {
            // The leader's PrepRequestProcessor checks the session first (a follower cut off may not know it expired).
            rc = RC.SESSIONEXPIRED;
          } else if (record.owner !== member || this.movedOnce.delete(record.id)) {
            rc = RC.SESSIONMOVED;
          } else {
            const write = request as WriteRequest;
            const committed = this.log.commitWrite(write, asker);
            ({ index, rc } = committed);
            // The leader applied it just now: its tree shows the node as this write left it.
            const statOf = (path: string) => (this.log.primary.read(path, { session: 0n, ids: [] }, 0) as { stat: SimStat }).stat;
            if (rc === 0 && committed.txn.type === 'create') value = { path: committed.txn.path, stat: statOf(committed.txn.path) };
            if (rc === 0 && (committed.txn.type === 'setData' || committed.txn.type === 'setAcl')) value = statOf(write.path);
          }
          this.log.afterApply(member, index, () => {
            const loss = connection.loseReply;
            if (loss && rc === 0 && (loss.when?.(request as WriteRequest) ?? true)) {
              connection.loseReply = undefined;
              connection.close('fault: the reply of an applied write is lost');
              loss.then?.(request as WriteRequest);
              return done();
            }
            connection.reply(() => packet.answer(rc, value, member.tree.lastZxid));
            done();
          });
        }), 'relay', SIM_ACTOR);
      }
    }
  }

  private serveRead(connection: ServerConnection, packet: ClientPacket, asker: Asker): void {
    const { tree } = connection.member;
    const request = packet.request as Extract<ClientPacket['request'], { op: 'getData' | 'exists' | 'getChildren' | 'getAcl' }>;
    const perms = request.op === 'exists' ? 0 : request.op === 'getAcl' ? 0 : undefined;
    const found = tree.read(request.path, asker, perms);
    if (request.op === 'getAcl' && !(found instanceof ZkFault) && !found.acl.some((a) => (a.perms & (1 | 16)) !== 0 && (a.scheme === 'world' || asker.ids.includes(a.id)))) {
      return connection.reply(() => packet.answer(RC.NOAUTH, undefined, tree.lastZxid));
    }
    if (request.watch && (request.op === 'exists' ? !(found instanceof ZkFault) || found.rc === RC.NONODE : !(found instanceof ZkFault))) {
      tree.watch(request.op === 'getChildren' ? 'child' : 'data', request.path, asker.session);
    }
    const zxid = tree.lastZxid;
    if (found instanceof ZkFault) return connection.reply(() => packet.answer(found.rc, undefined, zxid));
    // The server lists children in its hash order: recipes must sort them themselves.
    const children = request.op === 'getChildren' ? this.scheduler.random.shuffle(found.children) : undefined;
    connection.reply(() => packet.answer(0, { ...found, children }, zxid));
  }

  /** The client's `SetWatches` after a reconnection: fire what changed since `relativeZxid`, keep the rest. */
  setWatches(connection: ServerConnection, relativeZxid: bigint, watches: ResentWatches): void {
    const fired = connection.member.tree.setWatches(connection.session!, relativeZxid, watches);
    for (const n of fired) connection.reply(() => connection.handle.notify(n.type, n.path));
  }

  // ------------------------------------------------------------------ sessions

  private attach(record: SessionRecord, connection: ServerConnection): void {
    // The session moves here: a connection it had elsewhere is closed by its server.
    for (const member of this.members) {
      for (const other of member.connections) if (other !== connection && other.session === record.id) other.close('session moved');
    }
    record.owner = connection.member;
    connection.session = record.id;
    this.sessions.touch(record);
  }

  private sweepContainers(intervalMs: number): void {
    this.scheduler.schedule(intervalMs, () => {
      this.sweepContainers(intervalMs);
      if (!this.hasQuorum) return;
      for (const path of this.log.primary.emptyContainers()) this.log.commitWrite({ op: 'delete', path, version: -1 }, { session: 0n, ids: [] });
    }, 'container sweep', SIM_ACTOR);
  }

  private expire(record: SessionRecord, why: string): void {
    record.ended = true;
    this.scheduler.note(`session 0x${record.id.toString(16)} expires (${why})`, SIM_ACTOR);
    this.log.commit(() => this.log.primary.closeSession(record.id, this.log.nextZxid(), this.log.wallTime()));
    // A member closes the session's connections as it applies the closeSession (FinalRequestProcessor):
    // a follower cut off from the leader does not, and goes on serving the session.
    for (const member of this.members) if (!this.links.isCut(member)) this.closeEnded(member, record.id);
  }

  /** Whether `member` knows that `record` ended: a follower cut off from the leader has not applied its closeSession. */
  private endedAt(member: Member, record: SessionRecord): boolean {
    return record.ended && !this.links.isCut(member);
  }

  /** Closes `member`'s connections of session `id`, or of every session that ended. */
  private closeEnded(member: Member, id?: bigint): void {
    for (const c of [...member.connections]) {
      if (c.session !== undefined && (id === undefined ? this.sessions.get(c.session)?.ended : c.session === id)) c.close('session expired');
    }
  }

  private startMembership(sequenceStart: number | undefined, newLinks: (leader: Member, followers: Member[]) => LeaderLinks): Membership {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const ensemble = this;
    const membership = new Membership({
      scheduler: this.scheduler,
      members: this.members,
      log: this.log,
      sequenceStart,
      get links() { return ensemble.links; },
      set links(links: LeaderLinks) { ensemble.links = links; },
      newLinks,
      synced: (member) => member.up && !this.links.isCut(member),
    });
    membership.seed();
    return membership;
  }

  private linkHost(): LinkHost {
    return {
      scheduler: this.scheduler,
      latency: () => this.latency(),
      session: (id) => this.sessions.get(id),
      touch: (record) => this.sessions.touch(record),
      lostLeader: (member, why) => {
        for (const c of [...member.connections]) c.close(`lost the leader: ${why}`);
      },
      rejoined: (member) => {
        // It syncs with the leader: the closeSessions it missed close their connections.
        this.closeEnded(member);
        this.log.scheduleApply(member);
      },
    };
  }

  // ------------------------------------------------------------------ faults and inspection

  /**
   * A dynamic reconfiguration (see `Membership`): servers join with new ids (`zk<id>.sim:2181`),
   * members leave and stop serving, `/zookeeper/config` changes and its watches fire. False when
   * refused. Needs `reconfigEnabled`.
   */
  reconfigure(change: MembershipChange): boolean {
    if (!this.membership) throw new Error('reconfigure needs a SimulatedEnsemble started with reconfigEnabled');
    return this.membership.reconfigure(change);
  }

  /** Expires a session now, as the server does after its timeout. */
  expireSession(hexId: string): void {
    const record = this.sessions.get(BigInt(`0x${hexId}`));
    if (record && !record.ended) this.expire(record, 'fault');
  }

  /** `actor` is cut off for `ms`: its packets wait (both ways), its new connections time out; neither end is told. */
  partition(actor: string, ms: number): void {
    this.network.cut(actor, ms);
  }

  /** A connection holds packets until its client's partition ends (see `NetworkPartitions`). */
  holding(connection: ServerConnection): void {
    this.network.holding(connection);
  }

  /**
   * Follower `id`'s link to the leader stops delivering, silently (see `LeaderLinks`), until
   * `reconnectFollower`. Refused (false) for the leader, and when the rest would not keep a quorum.
   */
  cutFollower(id: number): boolean {
    const member = this.members.find((m) => m.id === id);
    if (!member || this.links.isLeader(member) || this.links.isCut(member)) return false;
    if (this.members.filter((m) => m !== member && m.up && !this.links.isCut(m)).length * 2 <= this.members.length) return false;
    this.links.cut(member);
    return true;
  }

  /** Follower `id`'s link to the leader delivers again. */
  reconnectFollower(id: number): void {
    const member = this.members.find((m) => m.id === id);
    if (member) this.links.heal(member);
  }

  /** The members that follow the leader (none in a one-server ensemble). */
  get followers(): Member[] {
    return this.links.followers();
  }

  /** Ends every partition and lag, and starts every stopped member: the faults are over. */
  heal(): void {
    this.network.healAll();
    for (const member of this.links.cutFollowers()) this.links.heal(member);
    for (const member of this.members) {
      member.lagUntil = 0;
      this.setMemberUp(member.id, true);
      this.log.scheduleApply(member);
    }
  }

  isPartitioned(actor: string): boolean {
    return this.network.isCut(actor);
  }

  /** When `actor`'s partition ends (0 when it has none). */
  partitionEnd(actor: string): number {
    return this.network.end(actor);
  }

  /**
   * `actor`'s process dies: it takes no more steps, and the kernel closes its sockets, so its
   * servers see the connections go (no closeSession: its sessions live until they expire).
   */
  crash(actor: string): void {
    this.scheduler.crash(actor);
    for (const connection of this.connectionsOf(actor)) connection.close('process died', true);
  }

  /** The next write of the session is refused with SESSIONMOVED. */
  moveSessionOnce(hexId: string): void {
    this.movedOnce.add(BigInt(`0x${hexId}`));
  }

  /** A member stops (its clients see their connections drop) or starts again (and catches up). */
  setMemberUp(id: number, up: boolean): void {
    // A member a reconfig removed is gone: it neither stops nor starts.
    const member = this.members.find((m) => m.id === id);
    if (!member || member.up === up) return;
    member.up = up;
    if (!up) for (const c of [...member.connections]) c.close('server stopped');
    else {
      this.links.restarted(member);
      this.log.scheduleApply(member);
    }
    if (!this.hasQuorum) for (const m of this.members) for (const c of [...m.connections]) c.close('quorum lost');
  }

  /** The member (a follower) applies nothing for `ms`: its reads go stale, its writes' replies and syncs wait. No-op for a lone server. */
  lag(id: number, ms: number): void {
    // A lone server is the leader: there is nobody for it to lag behind.
    if (this.members.length === 1) return;
    const member = this.members.find((m) => m.id === id);
    if (!member) return;
    member.lagUntil = Math.max(member.lagUntil, this.scheduler.now + ms);
    this.log.scheduleApply(member);
  }

  /**
   * Every member restarts with an empty data directory: the tree, the log and the sessions are
   * gone and zxids start over, so a client that saw a later zxid is refused until it starts a new session.
   */
  wipe(): void {
    for (const member of this.members) for (const c of [...member.connections]) c.close('restarted with an empty data directory');
    this.log.wipe();
    this.membership?.seed();
    this.sessions.clear();
  }

  /**
   * A session of an operator (zkCli, a tool, another application) that writes straight through
   * the leader and never expires: what faults use to touch the tree behind the recipes' backs.
   * Returns its hex id.
   */
  operatorSession(): string {
    const { id } = this.sessions.openOperator(this.members[0]!.id);
    this.log.commit(() => ({ type: 'createSession', zxid: this.log.nextZxid(), time: this.log.wallTime(), session: id }));
    return id.toString(16);
  }

  /** A write of an operator session (see `operatorSession`): the created path, or the failure's return code. */
  operatorWrite(sessionHex: string, request: WriteRequest): { rc: number; path?: string } {
    if (!this.hasQuorum) return { rc: RC.CONNECTIONLOSS };
    const { rc, txn } = this.log.commitWrite(request, { session: BigInt(`0x${sessionHex}`), ids: [] });
    return rc === 0 && txn.type === 'create' ? { rc, path: txn.path } : { rc };
  }

  /**
   * Creates `nodes` (parents first, as `persistentNodes` lists them) as they were saved: data, ACL,
   * container, and each node's sequence counter where it was. For a server starting on a file,
   * before any client connects.
   */
  restore(nodes: readonly PersistentNode[]): void {
    // A restored child counts as a create of its parent: its parent starts that many creates short.
    const restoredChildren = new Map<string, number>();
    for (const node of nodes) restoredChildren.set(parentOf(node.path), (restoredChildren.get(parentOf(node.path)) ?? 0) + 1);
    for (const node of nodes) {
      this.log.commit(() => ({
        type: 'create',
        zxid: this.log.nextZxid(),
        time: this.log.wallTime(),
        path: node.path,
        data: node.data,
        owner: node.container ? CONTAINER_OWNER : 0n,
        acl: node.acl,
        sequence: (node.sequence - (restoredChildren.get(node.path) ?? 0)) | 0,
      }));
    }
  }

  /** The leader's persistent nodes and containers (see `ZnodeTree.persistentNodes`). */
  persistentNodes(): PersistentNode[] {
    return this.log.primary.persistentNodes();
  }

  /** Connections of the handles `actor` opened. */
  connectionsOf(actor: string): ServerConnection[] {
    return this.members.flatMap((m) => [...m.connections].filter((c) => c.handle.actor === actor));
  }

  /** Sessions the server considers alive. */
  liveSessions(): string[] {
    return this.sessions.live().map((r) => r.id.toString(16));
  }

  /** The leader's tree: every node with its owner (hex session id, `0` for persistent ones). */
  nodes(): { path: string; owner: string }[] {
    return this.log.primary.snapshot().map(({ path, owner }) => ({ path, owner: owner.toString(16) }));
  }

  /** How many log entries the leader keeps (those some member has not applied yet, and a few more; see `ReplicatedLog`). */
  get retainedLogEntries(): number {
    return this.log.retained;
  }

  /** Whether some session watches `path` (a data or exists watch, on any server). */
  isWatched(path: string): boolean {
    return this.members.some((member) => member.tree.isWatched(path));
  }

  /** Reads the leader's tree (for checks and the testing entry point, not for recipes). */
  readNode(path: string): { data: Buffer; stat: SimStat; children: string[]; acl: readonly ZkAcl[] } | undefined {
    const found = this.log.primary.read(path, { session: 0n, ids: [] }, 0);
    return found instanceof ZkFault ? undefined : found;
  }
}
