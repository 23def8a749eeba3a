import type { SimClock } from './sim-clock.js';
import { SIM_ACTOR } from './sim-scheduler.js';
import { ZnodeTree, type MultiWrite, type Notification, type ResentWatches, type WriteRequest } from './znode-tree.js';

/** A request as it travels to the server. */
export type ClientRequest =
  | { readonly op: 'ping' }
  | { readonly op: 'auth'; readonly id: string }
  | { readonly op: 'closeSession' }
  | { readonly op: 'getData' | 'exists' | 'getChildren'; readonly path: string; readonly watch: boolean }
  | { readonly op: 'getAcl'; readonly path: string; readonly watch?: false }
  | { readonly op: 'sync'; readonly path: string }
  /** After a reconnection: fire the watches whose node changed after `relativeZxid`, set the others again. */
  | { readonly op: 'setWatches'; readonly relativeZxid: bigint; readonly watches: ResentWatches }
  /** A watch that stays (ZooKeeper 3.6+), on `path` or (`recursive`) on it and below. */
  | { readonly op: 'addWatch'; readonly path: string; readonly recursive: boolean }
  /** checkWatches (`remove` false) or removeWatches of the session's watches at `path` of `WatcherType` `type`. */
  | { readonly op: 'removeWatches'; readonly path: string; readonly type: number; readonly remove: boolean }
  /** The session's own ephemeral nodes under `prefix`. */
  | { readonly op: 'getEphemerals'; readonly prefix: string }
  /** A transaction: every op applies or none; each with the op code it was sent as (its result's type follows it). */
  | { readonly op: 'multi'; readonly ops: readonly { readonly opCode: number; readonly write: MultiWrite }[] }
  /** A request of the protocol the simulated servers do not serve (multiRead, whoAmI, ...): answered UNIMPLEMENTED. */
  | { readonly op: 'unimplemented'; readonly opCode: number }
  | WriteRequest;

export interface ClientPacket {
  readonly request: ClientRequest;
  /** Its size on the wire, against `jute.maxbuffer`. */
  readonly bytes: number;
  /** The server's reply: return code, value, and the zxid the server had reached. */
  answer(rc: number, value: unknown, zxid: bigint): void;
}

/** What a connection's client end is to the server: the simulated C client (`SimulatedHandle`), or a socket of the TypeScript client (`SimulatedLink`). */
export interface ConnectionClient {
  readonly actor: string;
  describe(): string;
  /** The server closed the connection (told after the network delay). */
  connectionDropped(connection: ServerConnection): void;
  /** A watch event for the client's session. */
  notify(type: Notification['type'], path: string): void;
}

/** What a connection needs of the ensemble it belongs to. */
export interface ConnectionHost {
  readonly scheduler: SimClock;
  latency(): number;
  isPartitioned(actor: string): boolean;
  /** The connection holds packets until its client's partition ends. */
  holding(connection: ServerConnection): void;
  /** A packet reached the server. */
  receive(connection: ServerConnection, packet: ClientPacket): void;
  /** Answers one request; `done` lets the session's next one through. */
  serve(connection: ServerConnection, packet: ClientPacket, done: () => void): void;
}

/** One server of the ensemble: a replica of the tree, and the connections of its clients. */
export class Member {
  readonly host: string;
  /** Its replica: replaced when its data directory is wiped, or by the snapshot it syncs from as it joins. */
  tree: ZnodeTree;
  /** How many log entries this replica has applied. */
  applied = 0;
  up = true;
  /** Applies nothing before this (a follower lagging behind the leader). */
  lagUntil = 0;
  readonly connections = new Set<ServerConnection>();
  /** Replies held until this replica has applied the entry they follow. */
  readonly held: { index: number; release: () => void }[] = [];

  constructor(
    readonly id: number,
    sequenceStart?: number,
  ) {
    this.host = `zk${id}.sim:2181`;
    this.tree = new ZnodeTree(sequenceStart);
  }
}

/** A client's TCP connection as both ends see it, with a FIFO channel each way. */
export class ServerConnection {
  open = true;
  session: bigint | undefined;
  /** The identities the client authenticated on this connection (digest ids). */
  readonly ids: string[] = [];
  private toServerAt = 0;
  private toClientAt = 0;
  /** Packets (both ways, in order) waiting for the client's partition to end. */
  private readonly held: (() => void)[] = [];
  /** The session's requests are answered in order: the next waits until the previous one replied. */
  private readonly inbox: { packet: ClientPacket; receivedAt: number }[] = [];
  private busy = false;
  /**
   * Fault: the reply of the next applied write (that `when` accepts, default any) closes the
   * connection instead; `then` runs at that moment (the write is applied, the client not told).
   */
  loseReply: { when?: (request: WriteRequest) => boolean; then?: (request: WriteRequest) => void } | undefined;
  /** Fault: the next two replies reach the client in swapped order (frame links only, see `SimulatedLink`). */
  swapReplies = false;

  constructor(
    readonly member: Member,
    readonly handle: ConnectionClient,
    private readonly ensemble: ConnectionHost,
  ) {}

  /**
   * A packet from the client, delivered after the network delay, in order. TCP loses nothing on a
   * connection that lives: while its client is cut off (`partition`), packets wait and arrive in
   * order when the partition ends, unless one side gives the connection up first.
   */
  send(packet: ClientPacket): void {
    if (this.hold(() => this.send(packet))) return;
    this.toServerAt = this.deliver(this.toServerAt, () => this.ensemble.receive(this, packet), 'packet', SIM_ACTOR);
  }

  /**
   * A packet to the client, delivered after the network delay, in order, as the client's step.
   * Dropped if the connection closes meanwhile, unless `last`: the server's last words, written
   * before it closes the connection (its answer to the handshake of an expired session).
   */
  reply(deliver: () => void, last = false): void {
    if (this.hold(() => this.reply(deliver, last), last)) return;
    this.toClientAt = this.deliver(this.toClientAt, deliver, 'reply', this.handle.actor, last);
  }

  /**
   * An identity the client authenticated as. The server keeps each once, however often the
   * client sends it (ServerCnxn's authInfo is a set; the C client sends its credentials again
   * after every handshake), so that an `auth` ACL gets one entry per identity.
   */
  authenticate(id: string): void {
    if (!this.ids.includes(id)) this.ids.push(id);
  }

  /** Cut off: TCP keeps the packet (and everything behind it, both ways) until the partition ends. */
  private hold(resend: () => void, last = false): boolean {
    if (!this.open && !last) return true; // gone with the connection
    if (this.held.length === 0 && !this.ensemble.isPartitioned(this.handle.actor)) return false;
    this.held.push(resend);
    this.ensemble.holding(this);
    return true;
  }

  private deliver(lastAt: number, arrive: () => void, label: string, actor: string, last = false): number {
    const s = this.ensemble.scheduler;
    const at = Math.max(s.now + this.ensemble.latency(), lastAt);
    s.schedule(at - s.now, () => (last || this.open) && arrive(), label, actor);
    return at;
  }

  /** The partition ended: what waited goes out, in order. */
  release(): void {
    for (const resend of this.held.splice(0)) resend();
  }

  enqueue(packet: ClientPacket): void {
    this.inbox.push({ packet, receivedAt: this.ensemble.scheduler.now });
    this.pump();
  }

  /** Serves the inbox in order; a write or sync holds the ones behind it until it replied. */
  pump(): void {
    while (!this.busy && this.open && this.inbox.length > 0) {
      const { packet } = this.inbox.shift()!;
      this.busy = true;
      this.ensemble.serve(this, packet, () => {
        this.busy = false;
        queueMicrotask(() => this.pump());
      });
    }
  }

  /** Closes the connection at the server; the client is told after the network delay unless `silently`. */
  close(why: string, silently = false): void {
    if (!this.open) return;
    this.open = false;
    this.inbox.length = 0;
    this.member.connections.delete(this);
    if (this.session !== undefined) this.member.tree.forgetWatches(this.session);
    this.ensemble.scheduler.note(`server ${this.member.id} closes the connection of ${this.handle.describe()}: ${why}`, SIM_ACTOR);
    if (!silently) {
      const s = this.ensemble.scheduler;
      s.schedule(this.ensemble.latency(), () => this.handle.connectionDropped(this), 'disconnect', this.handle.actor);
    }
  }
}

/** A client's handshake: the session to resume (0n for a new one), and what the client knows. */
export interface HandshakeRequest {
  readonly session: bigint;
  readonly password: string;
  readonly timeoutMs: number;
  /** The last zxid the client saw: a server behind it refuses the client. */
  readonly lastZxidSeen: bigint;
  /** Its identities (digest), sent again after every handshake. */
  readonly ids: readonly string[];
}

/** What the server answers a handshake. */
export type Handshake = { readonly ok: true; readonly session: bigint; readonly password: string; readonly timeoutMs: number } | { readonly ok: false; readonly expired: true };

