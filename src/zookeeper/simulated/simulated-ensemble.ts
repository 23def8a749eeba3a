import { ZOOKEEPER_ERROR_CODES as RC } from '../../errors/zookeeper.error.js';
import type { NativeZooKeeperConstructor } from '../native-binding.js';
import type { ZkAcl } from '../types.js';
import type { SimClock } from './sim-clock.js';
import { SIM_ACTOR } from './sim-scheduler.js';
import { Member, ServerConnection, type ClientPacket, type ConnectionClient, type ConnectionHost, type Handshake, type HandshakeRequest } from './server-connection.js';
import { SimulatedHandle, type HandleHost } from './simulated-handle.js';
import { ZkFault, ZnodeTree, type Asker, type Notification, type SimStat, type Txn, type WriteRequest } from './znode-tree.js';

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
}

interface SessionRecord {
  readonly id: bigint;
  readonly password: string;
  readonly timeoutMs: number;
  /** The server's session tracker expires it at this tick. */
  expiresAt: number;
  /** The member whose connection owns the session (requests relayed by another are SESSIONMOVED). */
  owner: Member | undefined;
  ended: boolean;
}

/**
 * A simulated ZooKeeper ensemble on a `SimScheduler`: one leader's log in zxid order, followers'
 * replicas that apply it with a delay (and may lag, so a read can be stale until `sync`), sessions
 * with ids carrying the server id in their top byte, expiry on the tick after the timeout without
 * traffic, one-shot data, exists and child watches fired by the replica a client is connected to,
 * before the reply to any later read that shows the change, `SetWatches` on reconnection, ACLs,
 * containers swept on the simulated clock, and the faults a test wants at exact points.
 *
 * Clients reach it through `binding`, a stand-in for the `zookeeper` package's native binding:
 * `ZooKeeperHandle` and `ZkSession` run over it unchanged.
 *
 * Deliberate abstractions: the leader is not a member that can fail (members fail; the log does
 * not), a member that is down loses its connections at once (a silent cut is `partition`),
 * `getAcl` needs READ or ADMIN, only the `digest` auth scheme and `world`/`digest`/`auth` ACLs
 * exist, and there are no TTL nodes, no multi, no quotas.
 */
export class SimulatedEnsemble implements ConnectionHost, HandleHost {
  readonly members: Member[];
  /** The leader's tree: what every write is checked against. */
  private primary = new ZnodeTree();
  private log: Txn[] = [];
  private epoch = 1n;
  private counter = 0n;
  private readonly sessions = new Map<bigint, SessionRecord>();
  private sessionCounter = 0n;
  readonly tickMs: number;
  private readonly minTimeout: number;
  private readonly maxTimeout: number;
  readonly maxBufferBytes: number;
  private readonly latencyRange: readonly [number, number];
  private readonly applyRange: readonly [number, number];
  /** Actors cut off the network (packets both ways vanish) until the time given. */
  private readonly partitions = new Map<string, number>();
  /** Connections holding packets for a partitioned client. */
  private readonly held = new Set<ServerConnection>();
  /** Sessions whose next write is refused with SESSIONMOVED (a fault). */
  private readonly movedOnce = new Set<bigint>();
  /** Every handle ever opened, for faults and checks by actor. */
  readonly handles = new Set<SimulatedHandle>();
  /**
   * The C client binding over this ensemble: `new ZooKeeperHandle({ ..., binding })`. A handle
   * belongs to the actor that creates it (its replies and watches are that actor's steps).
   */
  readonly binding: NativeZooKeeperConstructor;

  constructor(
    readonly scheduler: SimClock,
    options: SimulatedEnsembleOptions = {},
  ) {
    this.members = (options.serverIds ?? [1, 2, 3]).map((id) => new Member(id));
    this.tickMs = options.tickMs ?? 500;
    this.minTimeout = options.minSessionTimeoutMs ?? 2 * this.tickMs;
    this.maxTimeout = options.maxSessionTimeoutMs ?? 20 * this.tickMs;
    this.maxBufferBytes = options.maxBufferBytes ?? 0xfffff;
    this.latencyRange = options.latencyMs ?? [0.05, 0.5];
    this.applyRange = options.applyDelayMs ?? [0, 0.3];
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const ensemble = this;
    this.binding = class extends SimulatedHandle {
      constructor(config: Record<string, unknown>) {
        super(ensemble, config);
        ensemble.handles.add(this);
      }
    };
    this.tickSessions();
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

  /** A quorum of members is up: without one, no member serves. */
  get hasQuorum(): boolean {
    return this.members.filter((m) => m.up).length * 2 > this.members.length;
  }

  /** The leader's zxid: the last one it assigned. */
  get lastZxid(): bigint {
    return this.primary.lastZxid;
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
      if (!member.up || !this.hasQuorum || request.lastZxidSeen > member.tree.lastZxid) {
        s.note(`server ${member.id} refuses ${handle.describe()} (seen 0x${request.lastZxidSeen.toString(16)}, has 0x${member.tree.lastZxid.toString(16)})`, SIM_ACTOR);
        s.schedule(this.latency(), refused, 'refused', handle.actor);
        return;
      }
      const connection = new ServerConnection(member, handle, this);
      for (const id of request.ids) connection.authenticate(id);
      member.connections.add(connection);
      const timeoutMs = Math.min(this.maxTimeout, Math.max(this.minTimeout, request.timeoutMs));
      if (request.session !== 0n) {
        const record = this.sessions.get(request.session);
        if (!record || record.ended || record.password !== request.password) {
          // The server answers an invalid session (a ConnectResponse with timeout 0), then
          // closes the connection once that is written (ZooKeeperServer.finishSessionInit): the
          // client reads the answer, and only then the close, and reports the session expired.
          connection.reply(() => answer(connection, { ok: false, expired: true }), true);
          connection.close('session expired', true);
          return;
        }
        this.attach(record, connection);
        connection.reply(() => answer(connection, { ok: true, session: record.id, password: record.password, timeoutMs: record.timeoutMs }));
        return;
      }
      // A new session: ZooKeeper's session ids carry the id of the server that made them in their top byte.
      const id = (BigInt(member.id) << 56n) | (0x5e55_0000n + ++this.sessionCounter);
      const record: SessionRecord = { id, password: this.scheduler.random.uuid().replaceAll('-', ''), timeoutMs, expiresAt: 0, owner: undefined, ended: false };
      this.sessions.set(id, record);
      this.attach(record, connection);
      // Creating a session is a transaction: the reply comes once this member applied it.
      const index = this.commit(() => ({ type: 'createSession', zxid: this.nextZxid(), time: this.wallTime(), session: id }));
      this.afterApply(member, index, () =>
        connection.reply(() => answer(connection, { ok: true, session: id, password: record.password, timeoutMs })),
      );
    }, 'handshake', SIM_ACTOR);
  }

  /** A packet reached the server over `connection` (see `ServerConnection.send`). */
  receive(connection: ServerConnection, packet: ClientPacket): void {
    const member = connection.member;
    if (!member.up || !this.hasQuorum) return connection.close('no quorum');
    if (packet.bytes > this.maxBufferBytes) return connection.close(`packet of ${packet.bytes} bytes exceeds jute.maxbuffer`);
    const record = connection.session === undefined ? undefined : this.sessions.get(connection.session);
    if (record && !record.ended) this.touch(record);
    connection.enqueue(packet);
  }

  /** Answers one request; `done` lets the next one of the session through. */
  serve(connection: ServerConnection, packet: ClientPacket, done: () => void): void {
    const member = connection.member;
    const record = this.sessions.get(connection.session!);
    const asker: Asker = { session: connection.session!, ids: connection.ids };
    if (!record || record.ended) {
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
      case 'closeSession': {
        record.ended = true;
        const index = this.commit(() => this.primary.closeSession(record.id, this.nextZxid(), this.wallTime()));
        this.afterApply(member, index, () => {
          connection.reply(() => packet.answer(0, undefined, member.tree.lastZxid));
          connection.close('session closed', true);
          done();
        });
        return;
      }
      case 'getData':
      case 'exists':
      case 'getChildren':
      case 'getAcl':
        this.serveRead(connection, packet, asker);
        return done();
      case 'sync': {
        // The leader answers a sync in its log order: once this member applied everything before it.
        this.scheduler.schedule(this.latency(), () => {
          const index = this.log.length;
          this.afterApply(member, index, () => {
            connection.reply(() => packet.answer(0, request.path, member.tree.lastZxid));
            done();
          });
        }, 'sync', SIM_ACTOR);
        return;
      }
      default: {
        // A write: relayed to the leader, checked and committed there, answered by this member
        // once it applied the entry. A failed write is committed too (an error transaction).
        this.scheduler.schedule(this.latency(), () => {
          let rc = 0;
          let value: unknown;
          let index = this.log.length;
          if (record.owner !== member || this.movedOnce.delete(record.id)) {
            rc = RC.SESSIONMOVED;
          } else {
            const write = request as WriteRequest;
            index = this.commit(() => {
              const zxid = this.nextZxid();
              const txn = this.primary.prepare(write, asker, zxid, this.wallTime());
              if (!(txn instanceof ZkFault)) return txn;
              rc = txn.rc;
              return { type: 'error', zxid, time: this.wallTime(), rc };
            });
            // The leader applied it just now: its tree shows the node as this write left it.
            const txn = this.log[index - 1]!;
            if (rc === 0 && txn.type === 'create') value = txn.path;
            if (rc === 0 && txn.type === 'setData') value = (this.primary.read(write.path, asker, 0) as { stat: SimStat }).stat;
          }
          this.afterApply(member, index, () => {
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
        }, 'relay', SIM_ACTOR);
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
  setWatches(connection: ServerConnection, relativeZxid: bigint, watches: { data: string[]; exist: string[]; child: string[] }): void {
    const fired = connection.member.tree.setWatches(connection.session!, relativeZxid, watches);
    for (const n of fired) connection.reply(() => connection.handle.notify(n.type, n.path));
  }

  // ------------------------------------------------------------------ the leader's log

  private nextZxid(): bigint {
    return (this.epoch << 32n) | ++this.counter;
  }

  /** Simulated wall-clock time of a transaction (ctime/mtime). */
  private wallTime(): number {
    return Date.UTC(2026, 0, 1) + Math.floor(this.scheduler.now);
  }

  /** Appends the transaction `make` builds (applied to the leader's tree at once) and schedules every replica to apply it. Returns its log index (1-based). */
  private commit(make: () => Txn): number {
    const txn = make();
    this.primary.apply(txn);
    this.log.push(txn);
    const index = this.log.length;
    for (const member of this.members) this.scheduleApply(member);
    return index;
  }

  private scheduleApply(member: Member): void {
    if (!member.up) return;
    const [min, max] = this.applyRange;
    const delay = Math.max(member.lagUntil - this.scheduler.now, 0) + min + this.scheduler.random.float() * (max - min);
    this.scheduler.schedule(delay, () => this.catchUp(member), 'apply', SIM_ACTOR);
  }

  /** `member` applies the log as far as it goes (unless it lags), fires its watches, releases held replies. */
  private catchUp(member: Member): void {
    if (!member.up || member.lagUntil > this.scheduler.now) return;
    while (member.applied < this.log.length) {
      this.deliver(member, member.tree.apply(this.log[member.applied++]!));
    }
    const ready = member.held.filter((h) => h.index <= member.applied);
    member.held.splice(0, member.held.length, ...member.held.filter((h) => h.index > member.applied));
    for (const h of ready) h.release();
  }

  private afterApply(member: Member, index: number, release: () => void): void {
    if (member.applied >= index) return release();
    member.held.push({ index, release });
    this.scheduleApply(member);
  }

  private deliver(member: Member, notifications: readonly Notification[]): void {
    for (const n of notifications) {
      for (const connection of member.connections) if (connection.session === n.session) connection.reply(() => connection.handle.notify(n.type, n.path));
    }
  }

  // ------------------------------------------------------------------ sessions

  private attach(record: SessionRecord, connection: ServerConnection): void {
    // The session moves here: a connection it had elsewhere is closed by its server.
    for (const member of this.members) {
      for (const other of member.connections) if (other !== connection && other.session === record.id) other.close('session moved');
    }
    record.owner = connection.member;
    connection.session = record.id;
    this.touch(record);
  }

  private touch(record: SessionRecord): void {
    // ZooKeeper's ExpiryQueue: the deadline rounded up to the next tick.
    record.expiresAt = (Math.floor((this.scheduler.now + record.timeoutMs) / this.tickMs) + 1) * this.tickMs;
  }

  private tickSessions(): void {
    this.scheduler.schedule(this.tickMs, () => {
      this.tickSessions();
      if (!this.hasQuorum) {
        // No leader, no expiry; a new leader gives every session a fresh timeout (as ZooKeeper's does).
        for (const record of this.sessions.values()) this.touch(record);
        return;
      }
      for (const record of this.sessions.values()) if (!record.ended && record.expiresAt <= this.scheduler.now) this.expire(record, 'timed out');
    }, 'session tick', SIM_ACTOR);
  }

  private sweepContainers(intervalMs: number): void {
    this.scheduler.schedule(intervalMs, () => {
      this.sweepContainers(intervalMs);
      if (!this.hasQuorum) return;
      for (const path of this.primary.emptyContainers()) {
        this.commit(() => {
          const zxid = this.nextZxid();
          const txn = this.primary.prepare({ op: 'delete', path, version: -1 }, { session: 0n, ids: [] }, zxid, this.wallTime());
          return txn instanceof ZkFault ? { type: 'error', zxid, time: this.wallTime(), rc: txn.rc } : txn;
        });
      }
    }, 'container sweep', SIM_ACTOR);
  }

  private expire(record: SessionRecord, why: string): void {
    record.ended = true;
    this.scheduler.note(`session 0x${record.id.toString(16)} expires (${why})`, SIM_ACTOR);
    this.commit(() => this.primary.closeSession(record.id, this.nextZxid(), this.wallTime()));
    for (const member of this.members) for (const c of member.connections) if (c.session === record.id) c.close('session expired');
  }

  // ------------------------------------------------------------------ faults and inspection

  /** Expires a session now, as the server does after its timeout. */
  expireSession(hexId: string): void {
    const record = this.sessions.get(BigInt(`0x${hexId}`));
    if (record && !record.ended) this.expire(record, 'fault');
  }

  /** `actor` is cut off for `ms`: its packets wait (both ways), its new connections time out; neither end is told. */
  partition(actor: string, ms: number): void {
    const end = Math.max(this.partitions.get(actor) ?? 0, this.scheduler.now + ms);
    this.partitions.set(actor, end);
    this.scheduler.schedule(end - this.scheduler.now, () => {
      if (this.partitionEnd(actor) === end) this.endPartition(actor);
    }, 'partition ends', SIM_ACTOR);
  }

  /** A connection holds packets until its client's partition ends. */
  holding(connection: ServerConnection): void {
    this.held.add(connection);
  }

  /**
   * The partition of `actor` ends: the packets TCP kept go out, both ways at once. (The library's
   * session-loss clock counts on hearing from the server only when the server can hear us: a
   * network that healed one way seconds before the other, as TCP's retransmission back-off can
   * make it, is outside what this simulation models; see the README's simulation section.)
   */
  private endPartition(actor: string): void {
    this.partitions.delete(actor);
    for (const connection of [...this.held]) {
      if (connection.handle.actor !== actor) continue;
      this.held.delete(connection);
      connection.release();
    }
  }

  /** Ends every partition and lag, and starts every stopped member: the faults are over. */
  heal(): void {
    for (const actor of [...this.partitions.keys()]) this.endPartition(actor);
    for (const member of this.members) {
      member.lagUntil = 0;
      this.setMemberUp(member.id, true);
      this.scheduleApply(member);
    }
  }

  isPartitioned(actor: string): boolean {
    return this.partitionEnd(actor) > this.scheduler.now;
  }

  /** When `actor`'s partition ends (0 when it has none). */
  partitionEnd(actor: string): number {
    return this.partitions.get(actor) ?? 0;
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
    const member = this.members.find((m) => m.id === id)!;
    if (member.up === up) return;
    member.up = up;
    if (!up) for (const c of [...member.connections]) c.close('server stopped');
    else this.scheduleApply(member);
    if (!this.hasQuorum) for (const m of this.members) for (const c of [...m.connections]) c.close('quorum lost');
  }

  /** The member (a follower) applies nothing for `ms`: its reads go stale, its writes' replies and syncs wait. No-op for a lone server. */
  lag(id: number, ms: number): void {
    // A lone server is the leader: there is nobody for it to lag behind.
    if (this.members.length === 1) return;
    const member = this.members.find((m) => m.id === id)!;
    member.lagUntil = Math.max(member.lagUntil, this.scheduler.now + ms);
    this.scheduleApply(member);
  }

  /**
   * Every member restarts with an empty data directory: the tree, the log and the sessions are
   * gone and zxids start over, so a client that saw a later zxid is refused until it starts a new session.
   */
  wipe(): void {
    for (const member of this.members) for (const c of [...member.connections]) c.close('restarted with an empty data directory');
    this.primary = new ZnodeTree();
    this.log = [];
    this.counter = 0n;
    this.epoch = 1n;
    this.sessions.clear();
    for (const member of this.members) {
      member.held.length = 0;
      member.applied = 0;
      (member as { tree: ZnodeTree }).tree = new ZnodeTree();
    }
  }

  /**
   * A session of an operator (zkCli, a tool, another application) that writes straight through
   * the leader and never expires: what faults use to touch the tree behind the recipes' backs.
   * Returns its hex id.
   */
  operatorSession(): string {
    const id = (BigInt(this.members[0]!.id) << 56n) | (0x0be0_0000n + ++this.sessionCounter);
    this.sessions.set(id, { id, password: '', timeoutMs: Infinity, expiresAt: Infinity, owner: undefined, ended: false });
    this.commit(() => ({ type: 'createSession', zxid: this.nextZxid(), time: this.wallTime(), session: id }));
    return id.toString(16);
  }

  /** A write of an operator session (see `operatorSession`): the created path, or the failure's return code. */
  operatorWrite(sessionHex: string, request: WriteRequest): { rc: number; path?: string } {
    if (!this.hasQuorum) return { rc: RC.CONNECTIONLOSS };
    const asker: Asker = { session: BigInt(`0x${sessionHex}`), ids: [] };
    let result: { rc: number; path?: string } = { rc: 0 };
    this.commit(() => {
      const zxid = this.nextZxid();
      const txn = this.primary.prepare(request, asker, zxid, this.wallTime());
      if (txn instanceof ZkFault) {
        result = { rc: txn.rc };
        return { type: 'error', zxid, time: this.wallTime(), rc: txn.rc };
      }
      if (txn.type === 'create') result = { rc: 0, path: txn.path };
      return txn;
    });
    return result;
  }

  /** Connections of the handles `actor` opened. */
  connectionsOf(actor: string): ServerConnection[] {
    return this.members.flatMap((m) => [...m.connections].filter((c) => c.handle.actor === actor));
  }

  /** Sessions the server considers alive. */
  liveSessions(): string[] {
    return [...this.sessions.values()].filter((r) => !r.ended).map((r) => r.id.toString(16));
  }

  /** The leader's tree: every node with its owner (hex session id, `0` for persistent ones). */
  nodes(): { path: string; owner: string }[] {
    return this.primary.snapshot().map(({ path, owner }) => ({ path, owner: owner.toString(16) }));
  }

  /** Whether some session watches `path` (a data or exists watch, on any server). */
  isWatched(path: string): boolean {
    return this.members.some((member) => member.tree.isWatched(path));
  }

  /** Reads the leader's tree (for checks and the testing entry point, not for recipes). */
  readNode(path: string): { data: Buffer; stat: SimStat; children: string[]; acl: readonly ZkAcl[] } | undefined {
    const found = this.primary.read(path, { session: 0n, ids: [] }, 0);
    return found instanceof ZkFault ? undefined : found;
  }
}
