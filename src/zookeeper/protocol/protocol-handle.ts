import { ZOOKEEPER_ERROR_CODES, ZooKeeperError } from '../../errors/zookeeper.error.js';
import { LeaderContact, routeOf, touchSlackMs } from '../leader-contact.js';
import type { SessionHandle, SessionHandleEvents } from '../session-handle.js';
import { OPEN_ACL_UNSAFE, type CreateMode, type Watcher, type ZkAcl, type ZkIdentity, type ZkStat } from '../types.js';
import { parseConnectString, type ServerAddress } from '../connect-string.js';
import { CONFIG_NODE } from '../ensemble-config.js';
import { multiOp, multiReadOp, type MultiOp, type MultiResult, type ReadOp, type ReadResult } from './multi.js';
import { CreateFlag, WatcherType } from './op-codes.js';
import {
  addWatchOp,
  createOp,
  deleteOp,
  existsOp,
  getAclOp,
  getChildrenOp,
  getDataOp,
  getEphemeralsOp,
  removeWatchesOp,
  setAclOp,
  setDataOp,
  syncOp,
  whoAmIOp,
  type Operation,
} from './operations.js';
import { isValidPath } from './path-check.js';
import { ProtocolSession } from './protocol-session.js';
import { parseSessionIdHex, sessionIdHex } from './records.js';
import { socketDialer, type Dialer, type ZkTlsOptions } from './server-link.js';
import { mergeWatches, WatchRegistry, type WatchKind } from './watch-registry.js';

export interface ProtocolHandleOptions {
  /** `host:port[,host:port...][/chroot]` */
  readonly connectString: string;
  readonly sessionTimeoutMs: number;
  /** Speak TLS to the servers with these `node:tls` options. */
  readonly tls?: ZkTlsOptions;
  /** @internal How links are opened (default: TCP, or TLS with `tls`); the simulation gives its own. */
  readonly dialer?: Dialer;
  /** @internal Used by tests to bound the shuffle of the hosts. */
  readonly random?: () => number;
}

const { BADARGUMENTS: BAD_ARGUMENTS, NONODE: NO_NODE } = ZOOKEEPER_ERROR_CODES;
/** A path as sent, and whether it names a sequential create (which may end with '/'). */
type PathCheck = readonly [path: string, sequential: boolean];
/** Sequential create modes (2, 3, 6) have the sequence bit. */
const isSequential = (flags: number): boolean => (flags & 2) !== 0;

// Why this file is long: it is the driver's whole request surface, one short method per request of
// the protocol, each mapping its paths through the chroot; the connection's state machine, the
// records and the watch tables are in their own files.

/**
 * The TypeScript driver: a `SessionHandle` over `ProtocolSession`, with the chroot applied to
 * every path, the watches kept in a `WatchRegistry` (and set again after every reconnection),
 * and leader contact recorded from the exact times the handshake and each request were written.
 */
export class ProtocolHandle implements SessionHandle {
  private readonly session: ProtocolSession;
  private readonly contact: LeaderContact;
  private readonly watches: WatchRegistry;
  /** Watches on `CONFIG_NODE`, which no chroot applies to: kept by server path, apart from the chrooted ones. */
  private readonly configWatches: WatchRegistry;
  private readonly chroot: string;
  private closedCode: number | undefined;

  constructor(
    options: ProtocolHandleOptions,
    events: SessionHandleEvents,
    resume?: { id: string; password: string },
  ) {
    const { hosts, chroot } = parseConnectString(options.connectString);
    this.watches = new WatchRegistry((error, event) => events.onWatcherError?.(error, event));
    this.configWatches = new WatchRegistry((error, event) => events.onWatcherError?.(error, event));
    this.chroot = chroot;
    this.contact = new LeaderContact(() => touchSlackMs(this.session.negotiatedTimeoutMs));
    this.session = new ProtocolSession(
      {
        hosts,
        timeoutMs: options.sessionTimeoutMs,
        dialer: options.dialer ?? socketDialer(options.tls),
        resume: resume && { id: parseSessionIdHex(resume.id), password: Buffer.from(resume.password, 'hex') },
        random: options.random,
      },
      {
        // The leader accepted (or revalidated) the session after the handshake was written.
        connected: (handshakeSentAt) => {
          this.contact.connected(handshakeSentAt);
          events.onConnected();
        },
        disconnected: () => events.onConnecting(),
        closed: (code) => {
          this.closedCode = code;
          this.watches.clear();
          this.configWatches.clear();
          events.onClosed(code);
        },
        notification: (type, serverPath) => {
          if (serverPath === CONFIG_NODE) this.configWatches.dispatch(type, serverPath);
          // Outside the chroot (the config node under one) it is no node the application watches.
          if (this.isUnderChroot(serverPath)) this.watches.dispatch(type, this.fromServer(serverPath));
        },
        sent: (operation, sentAt) => this.contact.sent(routeOf(operation), sentAt),
        answered: (operation, sentAt, err) => {
          if (this.contact.replied(operation, sentAt, err)) events.onLeaderAnswer?.();
        },
        attemptFailed: (server, reason) => events.onAttemptFailed?.(server, reason),
        watchesToRestore: () => mergeWatches(this.watches.toRestore((path) => this.toServer(path)), this.configWatches.toRestore((path) => path)),
      },
    );
  }

  get sessionId(): string {
    return sessionIdHex(this.session.id);
  }

  get sessionPassword(): string {
    // Upper case, as the `zookeeper` package gives it: its binding decodes only '0'-'9' and 'A'-'F'
    // (lower-case digits become other bytes), so a password of ours resumes with either driver.
    return this.session.passwordBytes.toString('hex').toUpperCase();
  }

  get negotiatedTimeoutMs(): number {
    return this.session.negotiatedTimeoutMs;
  }

  get lastContactAt(): number {
    return this.contact.provenAt;
  }

  get lastLeaderRequestAt(): number {
    return this.contact.lastLeaderSendAt;
  }

  get isClosed(): boolean {
    return this.closedCode !== undefined;
  }

  get watcherCount(): number {
    return this.watches.count;
  }

  close(): Promise<void> {
    this.session.close();
    return this.session.whenClosed;
  }

  addAuth(scheme: string, credentials: string): Promise<void> {
    return this.session.addAuth(scheme, Buffer.from(credentials, 'utf8'));
  }

  async create(path: string, data: Buffer | null = null, mode: CreateMode = 'persistent'): Promise<string> {
    return (await this.create2(path, data, mode)).path;
  }

  /** Creates a znode and answers with its stat too (`create2`): no read needed to learn its version or czxid. */
  async create2(path: string, data: Buffer | null = null, mode: CreateMode = 'persistent', acl: readonly ZkAcl[] = OPEN_ACL_UNSAFE): Promise<{ path: string; stat: ZkStat }> {
    const flags = CreateFlag[mode];
    const created = await this.request(createOp(this.toServer(path), data ?? Buffer.alloc(0), acl, flags), path, [[this.toServer(path), isSequential(flags)]]);
    return { path: this.fromServer(created.path), stat: created.stat };
  }

  getChildren(path: string, watcher?: Watcher): Promise<{ children: string[]; stat: ZkStat }> {
    return this.watchedRead(getChildrenOp(this.toServer(path), !!watcher), path, watcher, 'child');
  }

  getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: ZkStat }> {
    return this.watchedRead(getDataOp(this.toServer(path), !!watcher), path, watcher, 'data');
  }

  async exists(path: string, watcher?: Watcher): Promise<ZkStat | null> {
    try {
      return await this.watchedRead(existsOp(this.toServer(path), !!watcher), path, watcher, 'data', 'exist');
    } catch (error) {
      // NONODE is an answer, not a failure; the server set a watch for the node's creation.
      if (!ZooKeeperError.is(error, 'NONODE')) throw error;
      return null;
    }
  }

  setData(path: string, data: Buffer, version: number): Promise<ZkStat> {
    return this.request(setDataOp(this.toServer(path), data, version), path);
  }

  delete(path: string, version = -1): Promise<void> {
    return this.request(deleteOp(this.toServer(path), version), path);
  }

  getAcl(path: string): Promise<{ acl: ZkAcl[]; stat: ZkStat }> {
    return this.request(getAclOp(this.toServer(path)), path);
  }

  async setAcl(path: string, acl: readonly ZkAcl[], version = -1): Promise<void> {
    await this.request(setAclOp(this.toServer(path), acl, version), path);
  }

  async sync(path: string): Promise<void> {
    await this.request(syncOp(this.toServer(path)), path);
  }

  /** All or nothing: see `MultiResult` for what a failed transaction answers. */
  async multi(ops: readonly MultiOp[]): Promise<MultiResult[]> {
    const sent = ops.map((op) => ({ ...op, path: this.toServer(op.path) }));
    const checks = sent.map((op): PathCheck => [op.path, op.type === 'create' && isSequential(op.flags)]);
    const results = await this.request(multiOp(sent), ops[0]?.path, checks);
    return results.map((result) => (result.type === 'create' ? { ...result, path: this.fromServer(result.path) } : result));
  }

  multiRead(ops: readonly ReadOp[]): Promise<ReadResult[]> {
    const sent = ops.map((op) => ({ ...op, path: this.toServer(op.path) }));
    return this.request(multiReadOp(sent), ops[0]?.path, sent.map((op): PathCheck => [op.path, false]));
  }

  /** A watch that fires on every change of `path` (or, `recursive`, of any node below it) until removed. */
  async addWatch(path: string, recursive: boolean, listener: Watcher): Promise<void> {
    await this.request(addWatchOp(this.toServer(path), recursive), path, undefined, (err) => {
      if (err === 0) this.watches.addPersistent(path, recursive, listener);
    });
  }

  /**
   * Forgets `watcher` (or every watcher) of `path` of a kind; the server is asked to drop its
   * watch only when no other watcher of this session still needs it. A `watcher` this client does
   * not hold (it fired, or its read failed) asks the server nothing: no watch of ours stands for it.
   */
  async removeWatches(path: string, type: keyof typeof WatcherType, watcher?: Watcher): Promise<void> {
    const kinds = type === 'any' ? (['data', 'child', 'persistent'] as const) : type === 'data' ? (['data'] as const) : (['child'] as const);
    const { removed, serverStillNeeded } = this.watches.remove(path, kinds, watcher);
    if (watcher && removed.length === 0) return;
    if (!serverStillNeeded) await this.request(removeWatchesOp(this.toServer(path), type), path);
  }

  /**
   * The ensemble's configuration (`/zookeeper/config`), with a data watch when `watcher` is given:
   * read at that absolute path whatever the chroot, as the Java client's `getConfig` does, and its
   * watch kept apart (`configWatches`), so that a chrooted `/zookeeper/config` of the application
   * is not mistaken for it. Not counted in `watcherCount`, which counts the application's watches.
   */
  getConfig(watcher?: Watcher): Promise<{ data: Buffer; stat: ZkStat }> {
    const op = getDataOp(CONFIG_NODE, !!watcher);
    if (!watcher) return this.session.send(op, CONFIG_NODE);
    return this.session.send(op, CONFIG_NODE, (err) => {
      if (err === 0) this.configWatches.add('data', CONFIG_NODE, watcher);
    });
  }

  /** Dials `hosts` from now on; a connection to a server among `left` moves (see `ProtocolSession.updateHosts`). */
  updateServers(hosts: readonly ServerAddress[], left: readonly ServerAddress[]): void {
    this.session.updateHosts(hosts, left);
  }

  /** Paths of the ephemeral nodes this session owns under `prefixPath`. */
  async getEphemerals(prefixPath = '/'): Promise<string[]> {
    const paths = await this.request(getEphemeralsOp(this.toServer(prefixPath)), prefixPath);
    return paths.map((path) => this.fromServer(path));
  }

  /** The identities the server authenticated this session as. */
  whoAmI(): Promise<ZkIdentity[]> {
    return this.request(whoAmIOp(), undefined);
  }

  /**
   * Sends a read that leaves `watcher` (if any) and registers it as the reply is read (see
   * `ProtocolSession.send`'s `onReply`): the server set a `kind` watch on success, and an
   * `ifMissing` one (exists: for the creation) on NONODE. Until then the registry knows the read is
   * in flight (`WatchRegistry.sending`), so that a removal meanwhile keeps the server's watch.
   */
  private watchedRead<T>(op: Operation<T>, path: string, watcher: Watcher | undefined, kind: WatchKind, ifMissing?: WatchKind): Promise<T> {
    if (!watcher) return this.request(op, path);
    const answered = this.watches.sending(kind, path);
    const sent = this.request(op, path, undefined, (err) => {
      answered();
      if (err === 0) this.watches.add(kind, path, watcher);
      else if (err === NO_NODE && ifMissing) this.watches.add(ifMissing, path, watcher);
    });
    sent.catch(answered); // failed without a reply: the connection dropped, or it was refused before sending
    return sent;
  }

  /** Sends `op`, unless one of its paths (as sent) fails the C client's check: see path-check.ts. */
  private request<T>(
    op: Operation<T>,
    displayPath: string | undefined,
    checks: readonly PathCheck[] = op.path === undefined ? [] : [[op.path, false]],
    onReply?: (err: number) => void,
  ): Promise<T> {
    if (checks.some(([path, sequential]) => !isValidPath(path, sequential))) {
      return Promise.reject(new ZooKeeperError(BAD_ARGUMENTS, op.name, displayPath, 'invalid path'));
    }
    return this.session.send(op, displayPath, onReply);
  }

  private toServer(path: string): string {
    if (!this.chroot) return path;
    return path === '/' ? this.chroot : this.chroot + path;
  }

  private isUnderChroot(serverPath: string): boolean {
    return !this.chroot || serverPath === this.chroot || serverPath.startsWith(`${this.chroot}/`);
  }

  private fromServer(path: string): string {
    if (!this.chroot) return path;
    if (path === this.chroot) return '/';
    // Only a path below the chroot (`/app` is not the chroot of `/application`).
    return path.startsWith(`${this.chroot}/`) ? path.slice(this.chroot.length) : path;
  }
}
