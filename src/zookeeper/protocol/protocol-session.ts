import { performance } from 'node:perf_hooks';
import { RecordTooLargeError } from '../../errors/record-too-large.error.js';
import { ZooKeeperProtocolError } from '../../errors/zookeeper-protocol.error.js';
import { ZOOKEEPER_ERROR_CODES, ZooKeeperError } from '../../errors/zookeeper.error.js';
import { HANDLE_CLOSED } from '../session-handle.js';
import { DEFAULT_MAX_FRAME_BYTES, FrameDecoder } from './frame-decoder.js';
import { HostList } from './host-list.js';
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';
import { OpCode, Xid } from './op-codes.js';
import { closeSessionOp, setWatchesOp, writeAuth, type Operation, type WatchesToRestore } from './operations.js';
import { readConnectResponse, readReplyHeader, writeConnectRequest } from './records.js';
import type { Dialer, ServerAddress, ServerLink } from './server-link.js';

// The codes of `ZooKeeperError` this layer produces itself. OPERATIONTIMEOUT: a connection given
// up after a timeout, the C client's code (`zookeeper_interest`); INVALIDSTATE: a request after the
// session ended, the C client's code for a dead handle (`is_unrecoverable`); CLOSING: requests in
// flight or queued when it ends. So both drivers answer alike.
const { CONNECTIONLOSS, OPERATIONTIMEOUT, SESSIONEXPIRED, AUTHFAILED, CLOSING, INVALIDSTATE: INVALID_STATE } = ZOOKEEPER_ERROR_CODES;
const { byUs: CLOSED_BY_US, expired: CLOSED_EXPIRED, authFailed: CLOSED_AUTH_FAILED } = HANDLE_CLOSED;

/** ZooKeeper's default `jute.maxbuffer` (1 MiB - 1): the server drops a connection that sends a larger packet. */
export const SERVER_MAX_PACKET_BYTES = 0xfffff;
/** How long `close()` waits for the server to confirm `closeSession` before cutting the link. */
const CLOSE_REPLY_BOUND_MS = 2000;

export interface ProtocolSessionOptions {
  readonly hosts: readonly ServerAddress[];
  /** Requested session timeout; the server's answer replaces it (`negotiatedTimeoutMs`). */
  readonly timeoutMs: number;
  readonly dialer: Dialer;
  /** Resume this session instead of creating one. */
  readonly resume?: { readonly id: bigint; readonly password: Buffer };
  readonly maxFrameBytes?: number;
  readonly random?: () => number;
}

export interface ProtocolSessionEvents {
  /** A handshake sent at `handshakeSentAt` (monotonic ms) was accepted; again after each reconnection. */
  connected(handshakeSentAt: number): void;
  /** The connection to the server dropped (why); the session lives on while we try the others. */
  disconnected(reason: Error): void;
  /** The session is over, and why (`HANDLE_CLOSED`). */
  closed(code: number): void;
  notification(type: number, serverPath: string): void;
  /** A request was written to the socket at `sentAt`. */
  sent(operation: string, sentAt: number): void;
  /** The server answered a request sent at `sentAt` with `err` (0 for success). */
  answered(operation: string, sentAt: number, err: number): void;
  /** A connection attempt to `server` failed before a session was established on it. */
  attemptFailed(server: string, reason: Error): void;
  /** The watches to set again on a new connection, asked once per handshake. */
  watchesToRestore(): WatchesToRestore;
}

interface Pending {
  readonly xid: number;
  readonly op: Operation<unknown>;
  readonly displayPath: string | undefined;
  sentAt: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Called as the reply is read, with its error code (0: success), before any later frame is handled. */
  readonly onReply?: (err: number) => void;
}

type State = 'connecting' | 'handshaking' | 'connected' | 'closing' | 'closed';

// Why this file is long: one connection's life (dial, handshake, pipelined requests matched to
// replies in order, pings, read timeout, failover to the next server) is one state machine over
// the fields below; what stands alone (framing, records, hosts, watches) is in its own file.

/**
 * One ZooKeeper session over a succession of connections, as the Java client keeps it
 * (`ClientCnxn`): dials the servers in turn, shakes hands with the last zxid it saw (a server
 * that is behind refuses it, and it tries the next), pipelines requests and matches each reply to
 * the oldest request in flight (the server answers a session's requests in order, so any other
 * xid means the stream is broken), pings after a third of the timeout without sending, and gives a
 * connection up after two thirds of it without hearing anything. The session ends when the
 * server reports it expired on a resume, when authentication fails, or when closed.
 */
export class ProtocolSession {
  private hosts: HostList;
  private state: State = 'connecting';
  private link: ServerLink | undefined;
  private address: ServerAddress | undefined;
  private decoder: FrameDecoder | undefined;
  private sessionId: bigint;
  private password: Buffer;
  private timeout: number;
  private lastZxid = 0n;
  private nextXid = 1;
  private readonly inFlight: Pending[] = [];
  /** Requests made while no connection was ready: sent after the next handshake, in order. */
  private readonly outbox: Pending[] = [];
  private readonly auths: { scheme: string; credentials: Buffer; waiting: Pending[] }[] = [];
  private handshakeSentAt = 0;
  private lastSendAt = 0;
  private lastHeardAt = 0;
  /** The one pending timer of the state machine: dial, connect timeout, ping / read timeout. */
  private timer: NodeJS.Timeout | undefined;
  /** A read timeout seen by the timer, confirmed after the next socket read (see `armTimer`). */
  private silenceCheck: NodeJS.Immediate | undefined;
  private closeBound: NodeJS.Timeout | undefined;
  private markClosed!: () => void;
  /** Resolves once the session is over and its last connection's socket released (see `close`). */
  readonly whenClosed = new Promise<void>((resolve) => (this.markClosed = resolve));

  constructor(
    private readonly options: ProtocolSessionOptions,
    private readonly events: ProtocolSessionEvents,
  ) {
    this.hosts = new HostList(options.hosts, options.random);
    this.sessionId = options.resume?.id ?? 0n;
    this.password = options.resume?.password ?? Buffer.alloc(16);
    this.timeout = options.timeoutMs;
    this.dialNext();
  }

  get id(): bigint {
    return this.sessionId;
  }

  get passwordBytes(): Buffer {
    return this.password;
  }

  /** The timeout the server granted at the last handshake (the requested one before). */
  get negotiatedTimeoutMs(): number {
    return this.timeout;
  }

  get isConnected(): boolean {
    return this.state === 'connected';
  }

  get isClosed(): boolean {
    return this.state === 'closing' || this.state === 'closed';
  }

  /**
   * Sends `op` (now, or after the next handshake) and resolves with its reply. `onReply` runs
   * synchronously when the reply is read, with its error code: a watch must be registered then,
   * because the server may send the watched node's change right behind the reply, in the same
   * read, before any promise continuation could run.
   */
  send<T>(op: Operation<T>, displayPath = op.path, onReply?: (err: number) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.isClosed) return reject(new ZooKeeperError(INVALID_STATE, op.name, displayPath, 'session closed'));
      const pending: Pending = { xid: this.xid(), op, displayPath, onReply, sentAt: 0, resolve: resolve as (v: unknown) => void, reject };
      if (this.state === 'connected') this.write(pending);
      else this.outbox.push(pending);
    });
  }

  /**
   * The servers to dial from now on (the ensemble's members changed: `EnsembleTracker`). The
   * connection is kept unless its server is among `left`, the servers that left the ensemble: then
   * it is dropped and the session moves to a member. The Java client (`StaticHostProvider.updateServerList`)
   * also moves some connections to newly added servers to even out the load, with a probability;
   * here a connection only moves when it must, so a reconfig costs no other reconnection. Only a
   * server named as the configuration names it can be known to have left: a connect string that
   * names the servers otherwise (a DNS name for the config's address) moves nothing.
   */
  updateHosts(hosts: readonly ServerAddress[], left: readonly ServerAddress[]): void {
    if (hosts.length === 0 || this.isClosed) return;
    this.hosts = new HostList(hosts, this.options.random);
    const current = this.address;
    if (this.state !== 'connected' || !current) return;
    if (!left.some((host) => host.host === current.host && host.port === current.port)) return;
    this.drop(new Error(`${current.host}:${current.port} left the ensemble`));
  }

  /** Adds credentials: sent now if connected, and again first thing after every reconnection. */
  addAuth(scheme: string, credentials: Buffer): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.isClosed) return reject(new ZooKeeperError(INVALID_STATE, 'addAuth', undefined, 'session closed'));
      const pending: Pending = { xid: Xid.auth, op: authOperation, displayPath: scheme, sentAt: 0, resolve: () => resolve(), reject };
      const auth = { scheme, credentials, waiting: [pending] };
      this.auths.push(auth);
      if (this.state === 'connected') this.sendAuth(auth);
    });
  }

  /** Ends the session: `closeSession` when connected (its ephemeral nodes go at once), then the link. */
  close(): void {
    if (this.isClosed) return;
    const connected = this.state === 'connected';
    this.state = 'closing';
    this.clearTimer();
    this.failAll(this.outbox, CLOSING, 'session closed');
    if (connected && this.link) {
      // The reply to closeSession, or the server closing the link, ends it; the bound covers a server that does neither.
      const close: Pending = { xid: this.xid(), op: closeSessionOp(), displayPath: undefined, sentAt: 0, resolve: () => this.finish(CLOSED_BY_US), reject: () => this.finish(CLOSED_BY_US) };
      this.write(close);
      this.closeBound = setTimeout(() => this.finish(CLOSED_BY_US), Math.min(CLOSE_REPLY_BOUND_MS, this.timeout));
    } else {
      this.finish(CLOSED_BY_US);
    }
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    clearImmediate(this.silenceCheck);
    this.timer = this.silenceCheck = undefined;
  }

  private xid(): number {
    const xid = this.nextXid;
    this.nextXid = xid >= 0x7fffffff ? 1 : xid + 1;
    return xid;
  }

  private dialNext(): void {
    const { address, delayMs } = this.hosts.take();
    this.state = 'connecting';
    this.timer = setTimeout(() => this.dial(address), delayMs);
  }

  private dial(address: ServerAddress): void {
    const startedAt = performance.now();
    this.decoder = new FrameDecoder(this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    let link: ServerLink | undefined;
    const current = () => link !== undefined && this.link === link;
    link = this.options.dialer(address, {
      opened: () => current() && this.handshake(),
      data: (chunk) => current() && this.receive(chunk),
      closed: (error) => current() && this.linkLost(error ?? new Error(`${address.host}:${address.port} closed the connection`)),
    });
    this.link = link;
    this.address = address;
    // Java's connectTimeout: the session timeout shared among the servers, for the link and the handshake.
    const connectTimeoutMs = this.timeout / this.hosts.size;
    this.timer = setTimeout(() => {
      if (current() && this.state !== 'connected') this.drop(new Error(`no session from ${address.host}:${address.port} within ${Math.round(connectTimeoutMs)} ms`), OPERATIONTIMEOUT);
    }, Math.max(0, startedAt + connectTimeoutMs - performance.now()));
  }

  private handshake(): void {
    this.state = 'handshaking';
    const writer = new JuteWriter(64);
    writeConnectRequest(writer, { lastZxidSeen: this.lastZxid, timeoutMs: this.options.timeoutMs, sessionId: this.sessionId, password: this.password, readOnly: false });
    this.handshakeSentAt = performance.now();
    this.link!.send(writer.frame());
  }

  private receive(chunk: Buffer): void {
    this.lastHeardAt = performance.now();
    let frames: Buffer[];
    try {
      frames = this.decoder!.push(chunk);
    } catch (error) {
      return this.drop(error as Error);
    }
    for (const frame of frames) {
      if (!this.link) return; // an earlier frame ended the connection
      try {
        if (this.state === 'handshaking') this.onConnectResponse(new JuteReader(frame, 'connect response'));
        else this.onReply(new JuteReader(frame, 'reply'));
      } catch (error) {
        if (!(error instanceof ZooKeeperProtocolError)) throw error;
        return this.drop(error);
      }
    }
  }

  private onConnectResponse(reader: JuteReader): void {
    const response = readConnectResponse(reader);
    if (response.timeoutMs <= 0) {
      // The server no longer knows the session we asked to resume: it expired.
      return this.end(CLOSED_EXPIRED, SESSIONEXPIRED, 'session expired');
    }
    this.clearTimer();
    this.state = 'connected';
    this.sessionId = response.sessionId;
    this.password = response.password;
    this.timeout = response.timeoutMs;
    this.lastSendAt = this.lastHeardAt = performance.now();
    this.hosts.connected();
    // Credentials and watches first, as the Java client does (`primeConnection`): every request
    // after them is then made with the identity and watches the session had.
    for (const auth of this.auths) this.sendAuth(auth);
    const watches = this.events.watchesToRestore();
    if (Object.values(watches).some((paths) => paths.length > 0)) {
      // Nobody waits for its reply: if this connection fails first, the registry still holds the
      // watches and the next handshake sends them again.
      this.write({ xid: Xid.setWatches, op: setWatchesOp(this.lastZxid, watches), displayPath: undefined, sentAt: 0, resolve: () => undefined, reject: () => undefined });
    }
    for (const pending of this.outbox.splice(0)) this.write(pending);
    this.armTimer();
    this.events.connected(this.handshakeSentAt);
  }

  private onReply(reader: JuteReader): void {
    const header = readReplyHeader(reader);
    if (header.xid === Xid.ping) return;
    if (header.xid === Xid.notification) return this.onNotification(reader);
    if (header.xid === Xid.auth) return this.onAuthReply(header.err);
    const pending = this.inFlight.shift();
    if (!pending || pending.xid !== header.xid) {
      if (pending) this.inFlight.unshift(pending);
      reader.fail(`reply xid ${header.xid} while ${pending ? `xid ${pending.xid}` : 'no request'} was next`);
    }
    if (header.zxid > this.lastZxid) this.lastZxid = header.zxid;
    this.events.answered(pending.op.name, pending.sentAt, header.err);
    if (header.err !== 0 && !pending.op.readsErrors) {
      pending.onReply?.(header.err);
      return pending.reject(new ZooKeeperError(header.err, pending.op.name, pending.displayPath));
    }
    let value: unknown;
    try {
      value = pending.op.read(reader);
      reader.end();
    } catch (error) {
      // Its outcome is unknown to us now, as after a connection loss; the caller checks, as then.
      pending.reject(new ZooKeeperError(CONNECTIONLOSS, pending.op.name, pending.displayPath, (error as Error).message));
      throw error;
    }
    // Now, not when the caller resumes (a microtask later): a notification in the same chunk,
    // right behind this reply, is dispatched before then, and must find the watch the read set.
    pending.onReply?.(header.err);
    pending.resolve(value);
  }

  /** `WatcherEvent`: type, keeper state (always SyncConnected from a server), path. */
  private onNotification(reader: JuteReader): void {
    const type = reader.int();
    reader.int();
    const path = reader.ustring();
    reader.end();
    this.events.notification(type, path);
  }

  private onAuthReply(err: number): void {
    const auth = this.auths.find((a) => a.waiting.length > 0);
    const pending = auth?.waiting.shift();
    if (err === AUTHFAILED) {
      // The server closes a session whose credentials it refused (`ClientCnxn`: AUTH_FAILED is final).
      pending?.reject(new ZooKeeperError(err, 'addAuth', auth?.scheme));
      return this.end(CLOSED_AUTH_FAILED, AUTHFAILED, 'authentication failed');
    }
    if (err !== 0) pending?.reject(new ZooKeeperError(err, 'addAuth', auth?.scheme));
    else pending?.resolve(undefined);
  }

  private sendAuth(auth: { scheme: string; credentials: Buffer; waiting: Pending[] }): void {
    const writer = new JuteWriter(64);
    writer.int(Xid.auth).int(OpCode.auth);
    writeAuth(writer, auth.scheme, auth.credentials);
    // Re-sent credentials after a reconnection have no caller waiting; their reply still comes in order.
    if (auth.waiting.length === 0) auth.waiting.push({ xid: Xid.auth, op: authOperation, displayPath: auth.scheme, sentAt: 0, resolve: () => undefined, reject: () => undefined });
    this.sendFrame(writer.frame());
  }

  private write(pending: Pending): void {
    const writer = new JuteWriter(64 + (pending.op.path?.length ?? 0));
    writer.int(pending.xid).int(pending.op.opCode);
    pending.op.write(writer);
    if (writer.length > SERVER_MAX_PACKET_BYTES) {
      // The server would drop the connection for it, and a caller retrying through connection loss would do it again.
      return pending.reject(new RecordTooLargeError(pending.displayPath ?? '(no path)', writer.length, SERVER_MAX_PACKET_BYTES));
    }
    pending.sentAt = performance.now();
    this.inFlight.push(pending);
    this.sendFrame(writer.frame());
    this.events.sent(pending.op.name, pending.sentAt);
  }

  private sendFrame(frame: Buffer): void {
    this.lastSendAt = performance.now();
    this.link!.send(frame);
  }

  /**
   * One timer while connected, for both duties of `ClientCnxn.SendThread`: a ping once a third of
   * the timeout passed without sending (half the read timeout), and giving the connection up once
   * two thirds passed without hearing anything. It re-arms itself for whichever comes first.
   */
  private armTimer(): void {
    this.clearTimer();
    const readTimeoutMs = (this.timeout * 2) / 3;
    const now = performance.now();
    const silentFor = now - this.lastHeardAt;
    if (silentFor >= readTimeoutMs) {
      // After a stall of this process, timers run before the event loop reads the sockets: what
      // the server sent meanwhile may be waiting unread. Judge the silence after the next read.
      this.silenceCheck = setImmediate(() => {
        this.silenceCheck = undefined;
        const silent = performance.now() - this.lastHeardAt;
        if (silent < readTimeoutMs) return this.armTimer();
        this.drop(new Error(`no answer from the server for ${Math.round(silent)} ms (read timeout ${Math.round(readTimeoutMs)} ms)`), OPERATIONTIMEOUT);
      });
      return;
    }
    const pingAt = this.lastSendAt + readTimeoutMs / 2;
    if (now >= pingAt) {
      const writer = new JuteWriter(8);
      writer.int(Xid.ping).int(OpCode.ping);
      this.sendFrame(writer.frame());
    }
    const next = Math.min(this.lastHeardAt + readTimeoutMs, this.lastSendAt + readTimeoutMs / 2);
    this.timer = setTimeout(() => this.armTimer(), Math.max(1, next - performance.now()));
  }

  /**
   * Gives the current connection up (a protocol error, a timeout): the session goes on elsewhere.
   * Its requests fail with `err`: OPERATIONTIMEOUT after a timeout, as the C client fails them
   * (the Java client says CONNECTIONLOSS); both are connection errors to the library.
   */
  private drop(reason: Error, err: number = CONNECTIONLOSS): void {
    const link = this.link;
    this.linkLost(reason, err);
    void link?.close();
  }

  private linkLost(reason: Error, err: number = CONNECTIONLOSS): void {
    if (this.state === 'closing') return this.finish(CLOSED_BY_US);
    if (this.state === 'closed') return;
    const wasConnected = this.state === 'connected';
    this.link = undefined;
    // Before the events below: a listener that sends a request must find it queued for the next
    // server, not written to the link just lost (`connected` with no link threw a TypeError).
    this.state = 'connecting';
    this.clearTimer();
    this.failAll(this.inFlight, err, reason.message);
    this.failAll(this.outbox, err, reason.message);
    // Each auth keeps its one waiter (a caller's, or none's): the packet is sent again first
    // thing on the next connection, and that reply answers it.
    if (wasConnected) this.events.disconnected(reason);
    else if (this.address) this.events.attemptFailed(`${this.address.host}:${this.address.port}`, reason);
    if (this.isClosed) return; // attemptFailed may have closed the session
    this.dialNext();
  }

  /** The session is over (expired, refused credentials): fail everything with `err`, close the link. */
  private end(closeCode: number, err: number, why: string): void {
    this.failAll(this.inFlight, err, why);
    this.failAll(this.outbox, err, why);
    for (const auth of this.auths) this.failAll(auth.waiting, err, why);
    this.state = 'closing';
    this.finish(closeCode);
  }

  private finish(closeCode: number): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.clearTimer();
    clearTimeout(this.closeBound);
    this.failAll(this.inFlight, CLOSING, 'session closed');
    const link = this.link;
    this.link = undefined;
    void Promise.resolve(link?.close()).then(() => this.markClosed());
    this.events.closed(closeCode);
  }

  private failAll(list: Pending[], err: number, why: string): void {
    for (const pending of list.splice(0)) pending.reject(new ZooKeeperError(err, pending.op.name, pending.displayPath, why));
  }
}

/** Stands for an auth packet in errors; auth replies come with their own xid, outside the request order. */
const authOperation: Operation<void> = { name: 'addAuth', opCode: OpCode.auth, path: undefined, write: () => undefined, read: () => undefined };
