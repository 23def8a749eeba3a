import { ZOOKEEPER_ERROR_CODES as RC } from '../../errors/zookeeper.error.js';
import type { NativeAcl, NativeAclReply, NativeBinding, NativeStat, NativeZooKeeper } from '../native-binding.js';
import type { ZkAcl } from '../types.js';
import { ClientWatches } from './client-watches.js';
import { describeReply, describeRequest, toNativeStat, zerror } from './native-replies.js';
import type { SimClock } from './sim-clock.js';
import type { SimEvent } from './sim-clock.js';
import type { ClientPacket, ClientRequest, ConnectionClient, Handshake, HandshakeRequest, Member, ServerConnection } from './server-connection.js';
import { digestId, type ResentWatches, type SimStat } from './znode-tree.js';

/** What the simulated C client needs of the ensemble it talks to (`SimulatedEnsemble`). */
export interface HandleHost {
  readonly scheduler: SimClock;
  /** The member at `host:port`, if any. */
  member(host: string): Member | undefined;
  isPartitioned(actor: string): boolean;
  /** Sends a handshake to `member`; `answer` or `refused` runs as the client's step. */
  handshake(
    member: Member,
    client: ConnectionClient,
    request: HandshakeRequest,
    answer: (connection: ServerConnection, result: Handshake) => void,
    refused: () => void,
  ): void;
  /** Re-sends the client's watches after a reconnection. */
  setWatches(connection: ServerConnection, relativeZxid: bigint, watches: ResentWatches): void;
}

type WatchFn = (type: number, state: number, path: string) => void;
type Listener = (...args: unknown[]) => void;

const EVENT_TYPES = { created: 1, deleted: 2, changed: 3, child: 4 } as const;
const STATE_CONNECTED = 3;
const STATE_CONNECTING = 1;
const STATE_EXPIRED = -112;
const ZINVALIDSTATE = -9;

// Why this file is long: it is the C client's one state machine (host rotation, handshake, ping and
// read timeout, the outbox while connecting, SetWatches, expiry), and each `a_*` request of the
// binding's surface is a few lines over it. The replies' encoding is in `native-replies.ts`.

/**
 * The C client over a `SimulatedEnsemble`, with the surface of the `zookeeper` package's handle
 * (`NativeZooKeeper` plus the `a_*` requests of `NativeBinding`), so that `ZooKeeperHandle`
 * drives it unchanged. It behaves as the C client does where the library can tell:
 * - it tries the connect string's hosts in an order it shuffles once (`addrvec_shuffle`), round
 *   after round, and resumes its session on any member; a member refuses it when behind the last
 *   zxid it saw;
 * - requests made while connecting are sent after the handshake, and fail with CONNECTIONLOSS
 *   when an attempt fails; requests in flight when the connection drops fail with CONNECTIONLOSS
 *   (whether or not the server applied them);
 * - it pings after a third of the timeout without traffic and gives up on a connection it has
 *   heard nothing from for two thirds of it; after a reconnection it re-sends its watches
 *   (`SetWatches`) before anything else;
 * - watches are one-shot and keyed by path: an event calls every watcher of its path and kind
 *   (created/changed: data and exists watchers; deleted: all; child: child watchers);
 * - an expired session closes the handle (`close` with -112); `close()` fails what is pending
 *   with CLOSING, emits `close` with 0, and sends closeSession when connected.
 */
export class SimulatedHandle implements NativeZooKeeper, NativeBinding, ConnectionClient {
  readonly actor: string;
  client_id = '0';
  client_password = '00000000000000000000000000000000';
  timeout: number;
  state = STATE_CONNECTING;
  private readonly listeners = new Map<string, Listener[]>();
  private readonly hosts: string[];
  private readonly requestedTimeout: number;
  private nextHost = 0;
  private connection: ServerConnection | undefined;
  private phase: 'idle' | 'connecting' | 'connected' | 'closed' = 'idle';
  private attempt = 0;
  private readonly pending = new Set<ClientPacket>();
  private readonly outbox: { request: ClientRequest; bytes: number; callback: (rc: number, value: unknown) => void }[] = [];
  private lastZxidSeen = 0n;
  private lastHeardAt = 0;
  private lastSentAt = 0;
  private pingTimer: SimEvent | undefined;
  private session = 0n;
  private readonly authIds: string[] = [];
  private connectedOnce = false;
  private readonly watches = new ClientWatches<WatchFn>();

  constructor(
    private readonly ensemble: HandleHost,
    config: Record<string, unknown>,
  ) {
    this.actor = ensemble.scheduler.actor;
    const connect = String(config.connect ?? '');
    this.hosts = ensemble.scheduler.random.shuffle((connect.includes('/') ? connect.slice(0, connect.indexOf('/')) : connect).split(','));
    this.requestedTimeout = this.timeout = Number(config.timeout ?? 30_000);
    if (config.client_id !== undefined) {
      this.session = BigInt(`0x${String(config.client_id)}`);
      this.client_id = String(config.client_id);
      this.client_password = String(config.client_password);
    }
  }

  get native(): NativeBinding {
    return this;
  }

  describe(): string {
    return `${this.actor}/0x${this.client_id}`;
  }

  on(event: 'connect' | 'connecting', listener: () => void): void;
  on(event: 'close', listener: (handle: unknown, code: number) => void): void;
  on(event: string, listener: (...args: never[]) => void): void {
    const list = this.listeners.get(event) ?? [];
    list.push(listener as Listener);
    this.listeners.set(event, list);
  }

  removeAllListeners(): void {
    this.listeners.clear();
  }

  init(): this {
    if (this.phase === 'idle') {
      this.phase = 'connecting';
      this.ensemble.scheduler.schedule(0, () => this.tryNextHost(), 'connect', this.actor);
    }
    return this;
  }

  close(): void {
    if (this.phase === 'closed') return;
    const connection = this.connection;
    if (this.phase === 'connected' && connection?.open) connection.send({ request: { op: 'closeSession' }, bytes: 16, answer: () => undefined });
    this.shutDown(RC.CLOSING, 0);
  }

  // ---------------------------------------------------------------- requests (NativeBinding)

  a_create(path: string, data: Buffer | string, flags: number, cb: (rc: number, error: string, path: string) => void): number {
    const buffer = Buffer.isBuffer(data) ? data : Buffer.from(data);
    return this.request({ op: 'create', path, data: buffer, flags }, path.length + buffer.length, (rc, value) => cb(rc, zerror(rc), (value as { path: string } | undefined)?.path as string));
  }

  a_exists(path: string, _watch: boolean, cb: (rc: number, error: string, stat: NativeStat | null) => void): number {
    return this.aw_exists(path, undefined, cb);
  }

  aw_exists(path: string, watcher: WatchFn | undefined, cb: (rc: number, error: string, stat: NativeStat | null) => void): number {
    return this.request({ op: 'exists', path, watch: watcher !== undefined }, path.length, (rc, value) => {
      if (watcher && rc === 0) this.watches.keep('data', path, watcher);
      if (watcher && rc === RC.NONODE) this.watches.keep('exist', path, watcher);
      cb(rc, zerror(rc), rc === 0 ? toNativeStat((value as { stat: SimStat }).stat) : null);
    });
  }

  a_get(path: string, _watch: boolean, cb: (rc: number, error: string, stat: NativeStat | null, data: Buffer | null) => void): number {
    return this.aw_get(path, undefined, cb);
  }

  aw_get(path: string, watcher: WatchFn | undefined, cb: (rc: number, error: string, stat: NativeStat | null, data: Buffer | null) => void): number {
    return this.request({ op: 'getData', path, watch: watcher !== undefined }, path.length, (rc, value) => {
      if (watcher && rc === 0) this.watches.keep('data', path, watcher);
      const found = value as { data: Buffer; stat: SimStat } | undefined;
      cb(rc, zerror(rc), found ? toNativeStat(found.stat) : null, found ? Buffer.from(found.data) : null);
    });
  }

  a_get_children2(path: string, _watch: boolean, cb: (rc: number, error: string, children: string[] | null, stat: NativeStat | null) => void): number {
    return this.aw_get_children2(path, undefined, cb);
  }

  aw_get_children2(path: string, watcher: WatchFn | undefined, cb: (rc: number, error: string, children: string[] | null, stat: NativeStat | null) => void): number {
    return this.request({ op: 'getChildren', path, watch: watcher !== undefined }, path.length, (rc, value) => {
      if (watcher && rc === 0) this.watches.keep('child', path, watcher);
      const found = value as { children: string[]; stat: SimStat } | undefined;
      cb(rc, zerror(rc), found ? found.children : null, found ? toNativeStat(found.stat) : null);
    });
  }

  a_set(path: string, data: Buffer | string, version: number, cb: (rc: number, error: string, stat: NativeStat | null) => void): number {
    const buffer = Buffer.isBuffer(data) ? data : Buffer.from(data);
    return this.request({ op: 'setData', path, data: buffer, version }, path.length + buffer.length, (rc, value) =>
      cb(rc, zerror(rc), rc === 0 ? toNativeStat(value as SimStat) : null),
    );
  }

  a_delete_(path: string, version: number, cb: (rc: number, error: string) => void): number {
    return this.request({ op: 'delete', path, version }, path.length, (rc) => cb(rc, zerror(rc)));
  }

  a_get_acl(path: string, cb: (rc: number, error: string, acl: NativeAclReply[] | null, stat: NativeStat | null) => void): number {
    return this.request({ op: 'getAcl', path }, path.length, (rc, value) => {
      const found = value as { acl: readonly ZkAcl[]; stat: SimStat } | undefined;
      cb(rc, zerror(rc), found ? found.acl.map((a) => ({ perms: a.perms, scheme: a.scheme, auth: a.id })) : null, found ? toNativeStat(found.stat) : null);
    });
  }

  a_set_acl(path: string, version: number, acl: NativeAcl[], cb: (rc: number, error: string) => void): number {
    const entries = acl.map((a) => ({ perms: a.perm, scheme: a.scheme, id: a.auth }));
    return this.request({ op: 'setAcl', path, acl: entries, version }, path.length + 64 * acl.length, (rc) => cb(rc, zerror(rc)));
  }

  a_sync(path: string, cb: (rc: number, error: string, path: string) => void): number {
    return this.request({ op: 'sync', path }, path.length, (rc) => cb(rc, zerror(rc), path));
  }

  add_auth(scheme: string, auth: string, cb: (rc: number, error: string) => void): number {
    if (scheme !== 'digest' || !auth.includes(':')) {
      this.ensemble.scheduler.schedule(0, () => cb(RC.AUTHFAILED, zerror(RC.AUTHFAILED)), 'auth', this.actor);
      return 0;
    }
    const id = digestId(auth);
    // Kept for every later connection, as the C client re-sends its credentials.
    this.authIds.push(id);
    return this.request({ op: 'auth', id }, auth.length, (rc) => cb(rc, zerror(rc)));
  }

  // ---------------------------------------------------------------- the server's side calls these

  /** A watch event for this session. */
  notify(type: keyof typeof EVENT_TYPES, path: string): void {
    if (this.phase === 'closed') return;
    this.lastHeardAt = this.ensemble.scheduler.now;
    this.ensemble.scheduler.note(`watch ${type} ${path}`);
    for (const watcher of this.watches.take(type, path)) watcher(EVENT_TYPES[type], STATE_CONNECTED, path);
  }

  /** The server closed `connection`, or we gave up on it. */
  connectionDropped(connection: ServerConnection): void {
    if (connection !== this.connection || this.phase === 'closed') return;
    this.connection = undefined;
    this.ensemble.scheduler.cancel(this.pingTimer);
    const wasConnected = this.phase === 'connected';
    this.phase = 'connecting';
    this.state = STATE_CONNECTING;
    this.ensemble.scheduler.note(`connection lost (${this.pending.size} requests in flight fail with CONNECTIONLOSS)`);
    this.failAll(RC.CONNECTIONLOSS);
    if (wasConnected) this.emit('connecting');
    this.ensemble.scheduler.schedule(this.ensemble.scheduler.random.between(1, 10), () => this.tryNextHost(), 'reconnect', this.actor);
  }

  // ---------------------------------------------------------------- internals

  private request(request: ClientRequest, bytes: number, callback: (rc: number, value: unknown) => void): number {
    if (this.phase === 'closed') return ZINVALIDSTATE;
    if (this.phase === 'connected' && this.connection?.open) this.transmit(request, bytes + 40, callback);
    else this.outbox.push({ request, bytes: bytes + 40, callback });
    return 0;
  }

  private transmit(request: ClientRequest, bytes: number, callback: (rc: number, value: unknown) => void): void {
    const s = this.ensemble.scheduler;
    if (s.tracer && request.op !== 'ping') s.note(`→ ${describeRequest(request)}`);
    const packet: ClientPacket = {
      request,
      bytes,
      answer: (rc, value, zxid) => {
        if (!this.pending.delete(packet)) return;
        this.lastHeardAt = s.now;
        if (zxid > this.lastZxidSeen) this.lastZxidSeen = zxid;
        if (s.tracer && request.op !== 'ping') s.note(`← ${request.op} ${'path' in request ? request.path : ''} ${rc === 0 ? 'ok' : zerror(rc)}${describeReply(value)}`);
        callback(rc, value);
      },
    };
    this.pending.add(packet);
    this.lastSentAt = s.now;
    this.connection!.send(packet);
  }

  private tryNextHost(): void {
    if (this.phase !== 'connecting') return;
    const attempt = ++this.attempt;
    const host = this.hosts[this.nextHost % this.hosts.length]!;
    this.nextHost++;
    const member = this.ensemble.member(host);
    const s = this.ensemble.scheduler;
    let failed = false;
    const refused = () => {
      if (failed || attempt !== this.attempt || this.phase !== 'connecting') return;
      failed = true;
      this.failAll(RC.CONNECTIONLOSS);
      // The next host at once; after a whole round, a pause (the C client's back-off).
      const roundDone = this.nextHost % this.hosts.length === 0;
      s.schedule(roundDone ? s.random.between(100, 1000) : s.random.between(1, 10), () => this.tryNextHost(), 'reconnect', this.actor);
    };
    // No answer (cut off, or the server went down before it replied): the C client gives the
    // attempt up after its recv timeout and tries the next host.
    s.schedule((2 * this.requestedTimeout) / 3, refused, 'connect timeout', this.actor);
    if (!member || this.ensemble.isPartitioned(this.actor)) return;
    this.ensemble.handshake(
      member,
      this,
      { session: this.session, password: this.client_password, timeoutMs: this.requestedTimeout, lastZxidSeen: this.lastZxidSeen, ids: this.authIds },
      (connection, result) => {
        if (failed) connection.close('client gave up on this attempt', true);
        else this.handshakeAnswered(attempt, connection, result);
      },
      refused,
    );
  }

  private handshakeAnswered(attempt: number, connection: ServerConnection, result: Handshake): void {
    if (attempt !== this.attempt || this.phase !== 'connecting') {
      connection.close('client gave up on this attempt', true);
      return;
    }
    if (!result.ok) {
      this.ensemble.scheduler.note(`session 0x${this.client_id} expired (told at reconnection)`);
      this.state = STATE_EXPIRED;
      this.shutDown(RC.SESSIONEXPIRED, STATE_EXPIRED);
      return;
    }
    const s = this.ensemble.scheduler;
    this.connection = connection;
    this.phase = 'connected';
    this.state = STATE_CONNECTED;
    this.session = result.session;
    this.client_id = result.session.toString(16);
    this.client_password = result.password;
    this.timeout = result.timeoutMs;
    this.lastHeardAt = this.lastSentAt = s.now;
    // lastZxidSeen stays as it was: the handshake's answer (ConnectResponse) carries no zxid. The
    // C client takes its last_zxid from reply headers only (zookeeper_process), and SetWatches
    // below sends that: a watch fires for every change the client has not seen a reply after.
    s.note(`connected to server ${connection.member.id} as session 0x${this.client_id}`);
    if (this.connectedOnce) {
      const watches = this.watches.paths();
      if (watches.data.length + watches.exist.length + watches.child.length > 0) this.ensemble.setWatches(connection, this.lastZxidSeen, watches);
    }
    this.connectedOnce = true;
    this.schedulePing();
    this.emit('connect', this);
    if (this.phase !== 'connected') return;
    for (const { request, bytes, callback } of this.outbox.splice(0)) this.transmit(request, bytes, callback);
  }

  /**
   * The C client's timer: it pings once it has sent nothing for a third of the timeout, and gives
   * up on the connection the moment it has heard nothing for two thirds of it (its recv timeout,
   * which the session-loss clock of `ZkSession` counts on). Armed for the earlier of the two.
   */
  private schedulePing(): void {
    const s = this.ensemble.scheduler;
    const recvDeadline = this.lastHeardAt + (2 * this.timeout) / 3;
    const pingDue = this.lastSentAt + this.timeout / 3;
    this.pingTimer = s.schedule(Math.min(recvDeadline, pingDue) - s.now, () => {
      if (this.phase !== 'connected' || !this.connection) return;
      if (s.now >= this.lastHeardAt + (2 * this.timeout) / 3) {
        s.note(`heard nothing from server ${this.connection.member.id} for ${Math.round(s.now - this.lastHeardAt)} ms: reconnecting`);
        const connection = this.connection;
        connection.close('client timed out the connection', true);
        this.connectionDropped(connection);
        return;
      }
      if (s.now >= this.lastSentAt + this.timeout / 3) this.transmit({ op: 'ping' }, 8, () => undefined);
      this.schedulePing();
    }, 'ping', this.actor);
  }

  private failAll(rc: number): void {
    const failed = [...this.pending].map((packet) => () => packet.answer(rc, undefined, 0n));
    const queued = this.outbox.splice(0);
    for (const fail of failed) fail();
    for (const { callback } of queued) callback(rc, undefined);
  }

  private shutDown(rc: number, code: number): void {
    this.phase = 'closed';
    this.ensemble.scheduler.cancel(this.pingTimer);
    const connection = this.connection;
    this.connection = undefined;
    this.failAll(rc);
    this.watches.clear();
    // Our side of the socket closes; the server keeps the session until closeSession or expiry.
    if (connection && code !== 0) connection.close('handle closed', true);
    this.emit('close', this, code);
  }

  private emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
}
