import { performance } from 'node:perf_hooks';
import { BehaviorSubject, type Observable } from 'rxjs';
import { AclNotAppliedError } from '../errors/acl-not-applied.error.js';
import { ConnectTimeoutError } from '../errors/connect-timeout.error.js';
import { DriverUnsupportedError } from '../errors/driver-unsupported.error.js';
import { tlsRefusal, type TlsHandshakeError } from '../errors/tls-handshake.error.js';
import { describeValue } from '../errors/describe-value.js';
import { validateDuration } from '../errors/duration-option.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { RecordTooLargeError } from '../errors/record-too-large.error.js';
import { SessionClosedError } from '../errors/session-closed.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { diagnosticsSink, type EventSink } from '../observability/event-sink.js';
import { AbandonedSessionCloser } from './abandoned-session.js';
import { aclOf, applyAclPolicy } from './acl-policy.js';
import { diagnoseConnect } from './connect-diagnosis.js';
import type { NativeZooKeeperConstructor } from './native-binding.js';
import { openSessionHandle, type SessionHandleOptions, type ZkDriver } from './open-session-handle.js';
import { formatConnectString, parseConnectString, type ServerAddress } from './connect-string.js';
import { EnsembleTracker } from './ensemble-tracker.js';
import type { MultiOp, MultiResult } from './protocol/multi.js';
import type { Dialer, ZkTlsOptions } from './protocol/server-link.js';
import { HANDLE_CLOSED, type SessionHandle } from './session-handle.js';
import { LeaderHeartbeat } from './leader-heartbeat.js';
import { SessionLossClock, type SessionLossReason } from './session-loss-clock.js';
import { isConnectedState, type SessionEventsByChannel, type SessionState, type SessionStateChange } from './session-state.js';
import { DEFAULT_MAX_RECORD_BYTES, type CreateMode, type Watcher, type ZkAcl, type ZkAuth, type ZkIdentity, type ZkStat, type ZnodeAclPolicy } from './types.js';
import type { ProtocolPower, ZkSessionClient } from './session-requests.js';
import type { ClientLogLevel } from './zookeeper-handle.js';

export interface ZkSessionLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface ZkSessionOptions {
  /** `host:port[,host:port...][/chroot]` */
  readonly connectString: string;
  /** Requested session timeout; the server clamps it to its own min and max. */
  readonly sessionTimeoutMs: number;
  /** How long `connect()` waits for the first session before failing. */
  readonly connectTimeoutMs: number;
  /** Credentials added to every session, e.g. `{ scheme: 'digest', credentials: 'user:secret' }`. */
  readonly auth?: readonly ZkAuth[];
  readonly clientLogLevel?: ClientLogLevel;
  /** Maximum back-off between attempts to replace an expired session. */
  readonly maxReconnectBackoffMs?: number;
  readonly logger?: ZkSessionLogger;
  /** Where state changes are reported. Default: the `node:diagnostics_channel` channels only. */
  readonly events?: EventSink<SessionEventsByChannel>;
  /** The ACL of every znode created at or below a root (the module's root); see `secure`. */
  readonly acl?: ZnodeAclPolicy;
  /** Largest record (create or setData data) sent; larger ones fail with `RecordTooLargeError`. Default 512 KiB. */
  readonly maxRecordBytes?: number;
  /** Which client speaks to ZooKeeper (see `ZkDriver`). Default `typescript`. */
  readonly driver?: ZkDriver;
  /** Speak TLS with these `node:tls` options (`ca`, `cert`, `key`, ...): the TypeScript driver only. */
  readonly tls?: ZkTlsOptions;
  /**
   * Follow the ensemble's membership (`/zookeeper/config`, see `EnsembleTracker`): dial the
   * servers it lists, not only those of `connectString`, so that a long-lived process survives the
   * replacement of every server it was given. Default true; the TypeScript driver only (the native
   * one cannot change its server list, and says so once in the log).
   */
  readonly followEnsemble?: boolean;
  /** @internal The C client binding (see `ZooKeeperHandleOptions.binding`): simulations pass the simulated one. */
  readonly binding?: NativeZooKeeperConstructor;
  /** @internal How the TypeScript driver opens links: simulations pass their own. */
  readonly dialer?: Dialer;
}

const SILENT: ZkSessionLogger = { log() {}, warn() {}, error() {} };

// Why this file is long: a session's life is one state machine (connecting, suspended, lost, abandoned,
// expired and replaced, closed) over fields every transition reads; its requests are one-line
// delegations to the current handle. What stands alone is elsewhere: the loss clock, the closing of
// an abandoned session, the connect diagnosis and the ACL policy.

/**
 * Owns the ZooKeeper session of one module instance and keeps one alive: it publishes the
 * connection state, tells when the server may have expired the session while we could not see
 * it (`lost`, see `SessionLossClock`), and after a real expiry builds a new session (the package's
 * handle is dead by then), re-applies auth, and announces it as `connected`, with back-off between
 * attempts so that a down ensemble causes no tight loop. A session still disconnected (or still
 * unconfirmed by the leader) a full session timeout after it was lost is given up the same way
 * (`abandonUnreachable`).
 */
export class ZkSession implements ZkSessionClient {
  private client: SessionHandle | undefined;
  private readonly subject: BehaviorSubject<SessionStateChange>;
  private readonly lossClock: SessionLossClock;
  private readonly heartbeat: LeaderHeartbeat;
  private readonly logger: ZkSessionLogger;
  private connectedOnce = false;
  private knownSessionId: string | undefined;
  private consecutiveFailures = 0;
  private replaceTimer: NodeJS.Timeout | undefined;
  /** Fires a session timeout after the disconnection of a `lost` session: see `abandonUnreachable`. */
  private abandonTimer: NodeJS.Timeout | undefined;
  /** Monotonic ms of the first disconnection since the last connection; undefined while connected. */
  private disconnectedAt: number | undefined;
  /** The id and password of a session given up by `abandonUnreachable`, to close once a new one connects. */
  private abandoned: { id: string; password: string } | undefined;
  private abandonedCloser: AbandonedSessionCloser | undefined;
  /** When the current handle's session was established; undefined until it is (see `replaceSession`). */
  private sessionStartedAt: number | undefined;
  private negotiatedTimeoutMs = 0;
  private readonly maxRecordBytes: number;
  /** While `connect()` waits: the TLS refusals met so far, by server, and how to end the wait on them. */
  private startup: { tlsRefusals: Map<string, TlsHandshakeError>; refused: AbortController } | undefined;
  private readonly serverCount: number;
  /** `whoAmI`'s answer for a session (see `sessionIdentities`). */
  private identities: { readonly sessionId: string; readonly answer: Promise<readonly ZkIdentity[] | undefined> } | undefined;
  /** Resolves once `close()` has released the driver's connection. */
  private released: Promise<void> = Promise.resolve();
  /** The current handle's `EnsembleTracker` (following the ensemble, with a driver that can). */
  private ensembleTracker: EnsembleTracker | undefined;
  /** The ensemble's client addresses as last read: every new handle dials these instead of the connect string's. */
  private ensembleHosts: readonly ServerAddress[] | undefined;
  private nativeCannotFollowLogged = false;

  constructor(private readonly options: ZkSessionOptions) {
    // The module validates its options in full; used on its own (from JavaScript, say), a missing
    // timeout would otherwise fail `connect()` at once with a ConnectTimeoutError "within undefined ms".
    if (typeof options?.connectString !== 'string' || options.connectString.trim() === '') {
      throw new InvalidOptionsError('connectString', `expected 'host:port[,host:port...][/chroot]', got ${describeValue(options?.connectString)}`);
    }
    for (const field of ['sessionTimeoutMs', 'connectTimeoutMs'] as const) validateDuration(field, options[field], { min: 1, integer: true });
    if (options.followEnsemble !== undefined && typeof options.followEnsemble !== 'boolean') {
      throw new InvalidOptionsError('followEnsemble', `expected true or false, got ${describeValue(options.followEnsemble)}`);
    }
    this.maxRecordBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    if (!Number.isSafeInteger(this.maxRecordBytes) || this.maxRecordBytes < 1) {
      throw new InvalidOptionsError('maxRecordBytes', `expected a positive integer (bytes), got ${describeValue(options.maxRecordBytes)}`);
    }
    this.logger = options.logger ?? SILENT;
    this.serverCount = new Set(parseConnectString(options.connectString).hosts.map((h) => `${h.host}:${h.port}`)).size;
    this.subject = new BehaviorSubject<SessionStateChange>({ state: 'connecting', sessionId: undefined, at: performance.now() });
    this.lossClock = new SessionLossClock({
      timeoutMs: () => this.timeoutMs(),
      lastContactAt: () => this.client?.lastContactAt ?? 0,
      onLost: (reason) => this.onMaybeExpired(reason),
      onConfirmed: () => this.onConfirmed(),
    });
    this.heartbeat = new LeaderHeartbeat({
      timeoutMs: () => this.timeoutMs(),
      lastLeaderRequestAt: () => this.client?.lastLeaderRequestAt ?? Number.NEGATIVE_INFINITY,
      // The answer matters only as proof (the handle records it); a failure leaves the proof to
      // age, which the loss clock reports as `lost` in time. Nothing else waits for this sync.
      beat: () => void this.client?.sync('/').catch(() => undefined),
    });
  }

  get state(): SessionState {
    return this.subject.value.state;
  }

  get state$(): Observable<SessionStateChange> {
    return this.subject.asObservable();
  }

  get sessionId(): string | undefined {
    return this.knownSessionId;
  }

  /** Hex password of the current session (with `sessionId`, it can resume the session). */
  get sessionPassword(): string | undefined {
    return this.client?.sessionPassword;
  }

  get mayHaveExpired(): boolean {
    const state = this.state;
    if (state === 'connected' || state === 'reconnected' || state === 'suspended') return this.lossClock.mayHaveExpired();
    return true; // lost, expired, closed, or no session yet
  }

  get isClosed(): boolean {
    return this.subject.value.state === 'closed';
  }

  /** Watches the current session has set that have not fired yet (see `SessionHandle.watcherCount`). */
  get watcherCount(): number {
    return this.client?.watcherCount ?? 0;
  }

  get sessionTimeoutMs(): number {
    return this.timeoutMs();
  }

  /** The client that speaks for this session (`ZkSessionOptions.driver`). */
  get driver(): ZkDriver {
    return this.options.binding ? 'native' : (this.options.driver ?? 'typescript');
  }

  get connectString(): string {
    return this.options.connectString;
  }

  /**
   * Ms since the leader is last proven to have touched this session (see `LeaderContact`);
   * undefined without a handle. While the ensemble answers, the heartbeat keeps it between a half
   * and two thirds of the session timeout (a proof dates from a request half a timeout older).
   */
  get lastContactAgoMs(): number | undefined {
    const at = this.client?.lastContactAt;
    return at ? Math.max(0, Math.round(performance.now() - at)) : undefined;
  }

  /**
   * Opens the first session and resolves once it is connected. When no server accepts it within
   * `connectTimeoutMs`, closes everything (no handle keeps the process alive) and rejects with
   * `ConnectTimeoutError` saying what reaching each server met; finding that out takes at most
   * another `min(connectTimeoutMs, 2000)` ms.
   */
  async connect(): Promise<void> {
    if (this.state === 'closed') throw new SessionClosedError('connect');
    const { connectString, connectTimeoutMs, sessionTimeoutMs } = this.options;
    if (!this.client) {
      this.logger.log(`Connecting to ZooKeeper at ${connectString} (session timeout ${sessionTimeoutMs} ms, connect timeout ${connectTimeoutMs} ms)`);
      this.openClient();
    }
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), connectTimeoutMs);
    this.startup = { tlsRefusals: new Map(), refused: new AbortController() };
    try {
      await this.waitForConnection(AbortSignal.any([timeout.signal, this.startup.refused.signal]));
    } catch (error) {
      if (this.startup.refused.signal.aborted && !this.isClosed) {
        this.close();
        throw this.startup.refused.signal.reason;
      }
      if (timeout.signal.aborted && !this.isClosed) {
        this.close();
        // A given binding or dialer (a simulation) has no address to probe.
        const { summary, cause } = this.options.binding || this.options.dialer
          ? { summary: `the given ${this.options.binding ? 'binding' : 'dialer'} connected no session`, cause: undefined }
          : await diagnoseConnect(connectString, Math.min(connectTimeoutMs, 2000));
        throw new ConnectTimeoutError(connectString, connectTimeoutMs, summary, { cause });
      }
      throw error;
    } finally {
      clearTimeout(timer);
      this.startup = undefined;
    }
  }

  /**
   * During `connect()`: a TLS handshake refused by either side is a configuration error, which no
   * retry mends. Once every server of the connect string refused one, start-up fails at once
   * with the first refusal instead of waiting out the connect timeout.
   */
  private onAttemptFailed(server: string, reason: Error): void {
    const startup = this.startup;
    const refusal = startup && tlsRefusal(server, reason);
    if (!startup || !refusal || this.connectedOnce) return;
    this.logger.warn(refusal.message);
    if (!startup.tlsRefusals.has(server)) startup.tlsRefusals.set(server, refusal);
    if (startup.tlsRefusals.size >= this.serverCount) startup.refused.abort(startup.tlsRefusals.values().next().value);
  }

  waitForConnection(signal?: AbortSignal): Promise<void> {
    if (isConnectedState(this.state)) return Promise.resolve();
    if (this.isClosed) return Promise.reject(new SessionClosedError('wait for a connection'));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => finish(signal!.reason ?? new Error('aborted'));
      const subscription = this.subject.subscribe({
        next: (change) => {
          if (isConnectedState(change.state)) finish();
          else if (change.state === 'closed') finish(new SessionClosedError('wait for a connection'));
        },
        complete: () => finish(new SessionClosedError('wait for a connection')),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort();
      function finish(error?: unknown) {
        queueMicrotask(() => subscription.unsubscribe());
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve();
      }
    });
  }

  /** Closes the session: its ephemeral nodes go at once; `state$` emits `closed` and completes. Resolves once the driver has released its connection. */
  close(): Promise<void> {
    if (this.state === 'closed') return this.released;
    clearTimeout(this.replaceTimer);
    clearTimeout(this.abandonTimer);
    this.abandonedCloser?.stop();
    this.ensembleTracker?.stop();
    this.lossClock.stop();
    this.heartbeat.stop();
    const client = this.client;
    this.client = undefined;
    this.emit('closed');
    this.subject.complete();
    this.released = client ? client.close() : Promise.resolve();
    return this.released;
  }

  /**
   * Creates a znode; under the ACL policy's root it is also given the policy's ACL before this
   * resolves. The request is sent synchronously (before any await), so requests pipelined behind
   * a create still reach the server after it.
   */
  async create(path: string, data?: Buffer | null, mode?: CreateMode): Promise<string> {
    this.checkRecordSize(path, data);
    const acl = aclOf(this.options.acl, path);
    // A driver that can create with an ACL gives the node the policy's ACL in the create itself:
    // no setAcl after it, and no moment in which the node is open.
    if (acl && this.client?.create2) return (await this.create2(path, data ?? null, mode ?? 'persistent')).path;
    const created = await this.send('create', path, (client) => client.create(path, data, mode));
    try {
      await this.secure(created);
    } catch (error) {
      // Never use a node someone else may control: take it away (its parent is ours) and say why.
      if (error instanceof AclNotAppliedError) await this.delete(created, -1).catch(() => undefined);
      throw error;
    }
    return created;
  }

  /**
   * Creates a znode (with the ACL policy's ACL, when under its root) and answers with its stat
   * as well, in one request. Not with `driver: 'native'` (`DriverUnsupportedError`).
   */
  create2(path: string, data: Buffer | null = null, mode: CreateMode = 'persistent'): Promise<{ path: string; stat: ZkStat }> {
    try {
      this.checkRecordSize(path, data);
    } catch (error) {
      return Promise.reject(error);
    }
    const acl = aclOf(this.options.acl, path);
    return this.send('create', path, (client) => this.power(client, 'create2', path).call(client, path, data, mode, acl));
  }

  /** All of `ops` or none, in one request (see `MultiResult`). Not with `driver: 'native'`. */
  multi(ops: readonly MultiOp[]): Promise<MultiResult[]> {
    const path = ops[0]?.path ?? '/';
    try {
      for (const op of ops) if (op.type === 'create' || op.type === 'setData') this.checkRecordSize(op.path, op.data);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.send('multi', path, (client) => this.power(client, 'multi', path).call(client, ops));
  }

  /**
   * A persistent watch on `path` (`recursive`: and every node below it), set again after every
   * reconnection; it ends with the session, or with `removeWatches`. Not with `driver: 'native'`.
   */
  addWatch(path: string, recursive: boolean, listener: Watcher): Promise<void> {
    return this.send('addWatch', path, (client) => this.power(client, 'addWatch', path).call(client, path, recursive, listener));
  }

  /** Removes watches of `path` here and, once none of this session needs it, on the server. Not with `driver: 'native'`. */
  removeWatches(path: string, type: 'data' | 'children' | 'any', watcher?: Watcher): Promise<void> {
    return this.send('removeWatches', path, (client) => this.power(client, 'removeWatches', path).call(client, path, type, watcher));
  }

  /**
   * Drops `watcher`, set on `path` by a read whose caller waits no more (a waiter that gave up, a
   * standby that left), here and (once no other watcher of this session needs it) on the server;
   * without it the server keeps the watch until the node changes, which for a long-held lock is as
   * long as it is held. Never rejects: a watch that fired meanwhile, a lost connection (the server
   * drops a connection's watches, and this one is no longer sent again), an ended session or a
   * server older than 3.6 (UNIMPLEMENTED) leave nothing to do; anything else is logged. With
   * `driver: 'native'` it does nothing: the package cannot remove a watch, which then fires once,
   * later, unheeded.
   */
  forgetWatch(path: string, kind: 'data' | 'children', watcher: Watcher): void {
    const client = this.client;
    if (!client?.removeWatches) return;
    client.removeWatches(path, kind, watcher).catch((error: unknown) => {
      if (ZooKeeperError.isRetryable(error) || ZooKeeperError.is(error, 'NOWATCHER', 'UNIMPLEMENTED')) return;
      this.logger.warn(`Could not remove a ${kind} watch on ${path} that nobody waits for: ${String(error)}`);
    });
  }

  /** The ephemeral nodes this session owns under `prefixPath`. Not with `driver: 'native'`. */
  getEphemerals(prefixPath = '/'): Promise<string[]> {
    return this.send('getEphemerals', prefixPath, (client) => this.power(client, 'getEphemerals', prefixPath).call(client, prefixPath));
  }

  /** The identities the server knows this session by (`ip`, `digest`, `x509`, ...). Not with `driver: 'native'`. */
  whoAmI(): Promise<ZkIdentity[]> {
    return this.send('whoAmI', '/', (client) => this.power(client, 'whoAmI').call(client));
  }

  /**
   * The identities the server knows the current session by (`whoAmI`), so that an operator can
   * see that digest or x509 authentication took effect. Asked once per session and remembered;
   * waits at most `waitMs` for the answer (a health check must not hang on a slow connection).
   * `undefined` when it cannot be known: `driver: 'native'`, a server before 3.7
   * (UNIMPLEMENTED), no session, or no answer in time (asked again next time after a failure).
   */
  async sessionIdentities(waitMs = 1000): Promise<readonly ZkIdentity[] | undefined> {
    const sessionId = this.sessionId;
    if (sessionId === undefined || !this.client?.whoAmI) return undefined;
    let asked = this.identities;
    if (asked?.sessionId !== sessionId) {
      const answer = this.whoAmI().then(
        (identities): readonly ZkIdentity[] | undefined => identities,
        (error: unknown) => {
          // Unknown to this server for good; anything else (a dropped connection): ask again.
          if (!ZooKeeperError.is(error, 'UNIMPLEMENTED') && this.identities === asked) this.identities = undefined;
          return undefined;
        },
      );
      asked = this.identities = { sessionId, answer };
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, waitMs, undefined)));
    try {
      return await Promise.race([asked.answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether the driver has `power` (its handle has the method; between two sessions, by the driver's name: the C client has none). */
  supports(power: ProtocolPower): boolean {
    const client = this.client;
    return client ? typeof client[power] === 'function' : this.driver !== 'native';
  }

  /** The driver's method for a power of the protocol, or `DriverUnsupportedError` when it has none. */
  private power<K extends ProtocolPower>(client: SessionHandle, name: K, path?: string): NonNullable<SessionHandle[K]> {
    const method = client[name];
    if (!method) throw new DriverUnsupportedError(name, this.driver, path);
    return method as NonNullable<SessionHandle[K]>;
  }

  /** Gives `path` the ACL policy's ACL when it lies under the policy's root: see `applyAclPolicy`. */
  secure(path: string): Promise<void> {
    return applyAclPolicy(this, this.options.acl, path);
  }

  getChildren(path: string, watcher?: Watcher): Promise<{ children: string[]; stat: ZkStat }> {
    return this.send('getChildren', path, (client) => client.getChildren(path, watcher));
  }

  getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: ZkStat }> {
    return this.send('getData', path, (client) => client.getData(path, watcher));
  }

  exists(path: string, watcher?: Watcher): Promise<ZkStat | null> {
    return this.send('exists', path, (client) => client.exists(path, watcher));
  }

  setData(path: string, data: Buffer, version: number): Promise<ZkStat> {
    try {
      this.checkRecordSize(path, data);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.send('setData', path, (client) => client.setData(path, data, version));
  }

  delete(path: string, version?: number): Promise<void> {
    return this.send('delete', path, (client) => client.delete(path, version));
  }

  getAcl(path: string): Promise<{ acl: ZkAcl[]; stat: ZkStat }> {
    return this.send('getAcl', path, (client) => client.getAcl(path));
  }

  setAcl(path: string, acl: readonly ZkAcl[], version?: number): Promise<void> {
    return this.send('setAcl', path, (client) => client.setAcl(path, acl, version));
  }

  sync(path: string): Promise<void> {
    return this.send('sync', path, (client) => client.sync(path));
  }

  /**
   * Every record passes here before it is sent. A request over the server's `jute.maxbuffer` is
   * not refused with an error code: the server drops the connection, so a caller that retries
   * through connection loss would re-send it after every reconnection, keeping the session
   * flapping but never expired. Refusing it here, typed, is the only place to stop that.
   */
  private checkRecordSize(path: string, data: Buffer | null | undefined): void {
    const size = data?.length ?? 0;
    if (size > this.maxRecordBytes) throw new RecordTooLargeError(path, size, this.maxRecordBytes);
  }

  /** Sends on the current session's handle; with none, fails the way a dead handle would. */
  private send<T>(operation: string, path: string, request: (client: SessionHandle) => Promise<T>): Promise<T> {
    if (this.client) {
      try {
        return request(this.client);
      } catch (error) {
        return Promise.reject(error); // refused before sending (DriverUnsupportedError)
      }
    }
    if (this.state === 'closed') return Promise.reject(new SessionClosedError(operation, path));
    // Between an expiry and its replacement there is no handle.
    return Promise.reject(new ZooKeeperError(-112, operation, path, 'session being replaced'));
  }

  /** The timeout the server granted at the last connection (kept while disconnected), else the requested one. */
  private timeoutMs(): number {
    return this.negotiatedTimeoutMs > 0 ? this.negotiatedTimeoutMs : this.options.sessionTimeoutMs;
  }

  private openClient(): void {
    const client = openSessionHandle(
      this.handleOptions(),
      {
        onConnected: () => this.client === client && this.onConnected(client),
        onConnecting: () => this.client === client && this.onDisconnected(),
        onClosed: (code) => this.client === client && this.onHandleClosed(code),
        onLeaderAnswer: () => this.client === client && this.lossClock.proofArrived(),
        onAttemptFailed: (server, reason) => this.client === client && this.onAttemptFailed(server, reason),
        onWatcherError: (error, event) => this.logger.error(`A watcher of ${event.path} threw on its ${event.type} event: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
      },
    );
    this.client = client;
    this.ensembleTracker?.stop();
    this.ensembleTracker = this.trackEnsemble(client);
    // The driver keeps the credentials and re-sends them after every reconnection.
    for (const { scheme, credentials } of this.options.auth ?? []) {
      client.addAuth(scheme, credentials).catch((error: unknown) => {
        if (this.client === client) this.logger.error(`Adding ${scheme} auth failed: ${String(error)}`);
      });
    }
  }

  private onConnected(client: SessionHandle): void {
    const sessionId = client.sessionId;
    const resumed = this.connectedOnce && sessionId === this.knownSessionId;
    this.connectedOnce = true;
    this.knownSessionId = sessionId;
    this.negotiatedTimeoutMs = client.negotiatedTimeoutMs;
    this.disconnectedAt = undefined;
    clearTimeout(this.abandonTimer);
    this.lossClock.connected();
    this.heartbeat.start();
    this.ensembleTracker?.refresh();
    if (resumed) {
      this.logger.log(`ZooKeeper session 0x${sessionId} reconnected`);
      this.emit('reconnected');
    } else {
      this.sessionStartedAt = performance.now();
      this.logger.log(`ZooKeeper session 0x${sessionId} established (timeout ${client.negotiatedTimeoutMs} ms)`);
      this.closeAbandoned();
      this.emit('connected');
    }
  }

  private onDisconnected(): void {
    this.disconnectedAt ??= performance.now();
    if (!isConnectedState(this.state)) return;
    this.logger.warn(`ZooKeeper connection lost; session 0x${this.knownSessionId} suspended`);
    this.emit('suspended');
    this.lossClock.suspended();
  }

  /** The loss clock says the server may have expired us by now. */
  private onMaybeExpired(reason: SessionLossReason): void {
    if (this.state === 'lost' || this.state === 'expired' || this.state === 'closed') return;
    const why = reason === 'disconnected' ? 'disconnected' : 'no answer through the leader in time: the server may be cut off from it, or this process was paused';
    this.logger.warn(`ZooKeeper session 0x${this.knownSessionId} may have expired (${why}): everything it held counts as lost`);
    this.emit('lost');
    const client = this.client;
    if (client) {
      const deadline = (this.disconnectedAt ?? performance.now()) + this.timeoutMs();
      clearTimeout(this.abandonTimer);
      this.abandonTimer = setTimeout(() => this.abandonUnreachable(client), Math.max(0, deadline - performance.now()));
    }
    // While the connection stays up (`unconfirmed`), the heartbeat goes on: if the leader still
    // has the session, a proof comes back and `onConfirmed` says so; if it does not, the server
    // drops the connection or reports the expiry, which the handlers here turn into states.
  }

  /** The loss clock counted the session lost while connected, and a leader-routed answer since shows it alive. */
  private onConfirmed(): void {
    if (this.state !== 'lost' || !this.client) return;
    clearTimeout(this.abandonTimer);
    this.logger.log(`ZooKeeper session 0x${this.knownSessionId} confirmed by the leader again`);
    this.emit('reconnected');
  }

  /**
   * A `lost` session still not connected a full session timeout after its disconnection (Curator's
   * policy): the server has expired it by now, or will never take it back, e.g. a server restarted
   * with an empty data directory refuses every client that has seen a later zxid than its own,
   * and the C client would retry that forever without ever reporting an expiry. Everything the
   * session held was already given up at `lost`, so nothing is lost by starting afresh.
   */
  private abandonUnreachable(client: SessionHandle): void {
    if (this.client !== client || isConnectedState(this.state) || this.state === 'closed') return;
    this.logger.warn(
      `ZooKeeper session 0x${this.knownSessionId} not reconnected (or confirmed by the leader) within a session timeout ` +
        `(${this.timeoutMs()} ms) of its loss: the server expired it or will not take it back (e.g. restarted with an ` +
        'empty data directory, or cut off from the leader); closing it and creating a new session',
    );
    this.client = undefined;
    if (this.knownSessionId) this.abandoned = { id: this.knownSessionId, password: client.sessionPassword };
    client.close();
    this.replaceSession();
  }

  /** The ensemble answers again (a new session connected): end the abandoned session, see `AbandonedSessionCloser`. */
  private closeAbandoned(): void {
    const abandoned = this.abandoned;
    this.abandoned = undefined;
    if (!abandoned || this.abandonedCloser) return;
    this.abandonedCloser = new AbandonedSessionCloser(
      this.handleOptions(),
      abandoned.id,
      abandoned.password,
      this.timeoutMs(),
      (outcome) => {
        this.abandonedCloser = undefined;
        if (outcome === 'closed') this.logger.log(`Abandoned ZooKeeper session 0x${abandoned.id} closed: its ephemeral nodes are gone`);
      },
    );
  }

  private onHandleClosed(code: number): void {
    this.client = undefined;
    this.logger.warn(
      code === HANDLE_CLOSED.expired
        ? `ZooKeeper session 0x${this.knownSessionId} expired; creating a new session`
        : `ZooKeeper handle closed (code ${code}); creating a new session`,
    );
    this.replaceSession();
  }

  /** The current handle is gone: announce `expired` and open a new session, with back-off. */
  private replaceSession(): void {
    // A handle that never established a session lived for nothing: without this, a server that
    // answers every new handle at once with an expiry would be asked again in a tight loop.
    const lived = this.sessionStartedAt === undefined ? 0 : performance.now() - this.sessionStartedAt;
    this.sessionStartedAt = undefined;
    this.ensembleTracker?.stop();
    clearTimeout(this.abandonTimer);
    this.disconnectedAt = undefined;
    this.lossClock.stop();
    this.heartbeat.stop();
    this.emit('expired');
    // A session that lived a while resets the back-off; one that died at once grows it.
    this.consecutiveFailures = lived > 2 * this.options.sessionTimeoutMs ? 0 : this.consecutiveFailures + 1;
    const maxBackoff = this.options.maxReconnectBackoffMs ?? 10_000;
    const delay = this.consecutiveFailures <= 1 ? 0 : Math.min(maxBackoff, 100 * 2 ** (this.consecutiveFailures - 2));
    this.replaceTimer = setTimeout(() => {
      if (this.state !== 'closed') this.openClient();
    }, delay);
  }

  /** A tracker of the ensemble's membership for `client`, when asked for and the driver can follow it. */
  private trackEnsemble(client: SessionHandle): EnsembleTracker | undefined {
    if (this.options.followEnsemble === false) return undefined;
    const { getConfig, updateServers } = client;
    if (!getConfig || !updateServers) {
      if (!this.nativeCannotFollowLogged) {
        this.nativeCannotFollowLogged = true;
        this.logger.log(`The ${this.driver} driver cannot change its server list: the session does not follow the ensemble's membership (/zookeeper/config) and dials only ${this.options.connectString}`);
      }
      return undefined;
    }
    const handle = { getConfig: getConfig.bind(client), updateServers: updateServers.bind(client) };
    return new EnsembleTracker(handle, this.options.tls !== undefined, this.logger, (hosts) => {
      if (this.client === client) this.ensembleHosts = hosts;
    });
  }

  private handleOptions(): SessionHandleOptions {
    const { connectString, sessionTimeoutMs, driver, tls, clientLogLevel, binding, dialer } = this.options;
    // Once the ensemble's membership is known, a new session dials its members: the servers of the
    // connect string may all be gone by then.
    const current = this.ensembleHosts ? formatConnectString(this.ensembleHosts, parseConnectString(connectString).chroot) : connectString;
    return { connectString: current, sessionTimeoutMs, driver, tls, clientLogLevel, binding, dialer };
  }

  private emit(state: SessionState): void {
    const previous = this.subject.value.state;
    if (previous === state) return;
    this.subject.next({ state, sessionId: this.knownSessionId, at: performance.now() });
    const events = this.options.events ?? diagnosticsSink;
    if (events.wants('session')) events.emit('session', { type: 'session.state', state, previous, sessionId: this.knownSessionId });
  }
}
