import { performance } from 'node:perf_hooks';
import { ZOOKEEPER_ERROR_CODES, ZooKeeperError } from '../errors/zookeeper.error.js';
import { nativeConnectString, shuffleHosts } from './connect-string.js';
import { LeaderContact, routeOf, touchSlackMs } from './leader-contact.js';
import {
  loadNativeZooKeeper,
  NATIVE_SESSION_EVENT,
  type NativeAcl,
  type NativeBinding,
  type NativeStat,
  type NativeZooKeeper,
  type NativeZooKeeperConstructor,
} from './native-binding.js';
import type { CreateMode, Watcher, WatchEventType, ZkAcl, ZkStat } from './types.js';
import type { SessionHandle, SessionHandleEvents } from './session-handle.js';

const CREATE_FLAGS: Record<CreateMode, number> = {
  persistent: 0,
  ephemeral: 1,
  persistent_sequential: 2,
  ephemeral_sequential: 3,
  container: 4,
};

const WATCH_EVENT_TYPES: Record<number, WatchEventType> = {
  1: 'created',
  2: 'deleted',
  3: 'changed',
  4: 'child',
  [-2]: 'notwatching',
};

const EMPTY = Buffer.alloc(0);

const RC_NONODE = ZOOKEEPER_ERROR_CODES.NONODE;

/** Log level of the C client (process-wide; it writes to stderr). `silent` by default. */
export type ClientLogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';
const LOG_LEVELS: Record<ClientLogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

export interface ZooKeeperHandleOptions {
  readonly connectString: string;
  readonly sessionTimeoutMs: number;
  /** Log level of the C client, which writes to stderr; the supervisor logs state changes itself. */
  readonly clientLogLevel?: ClientLogLevel;
  /**
   * The C client binding to open the handle with. Default: the `zookeeper` package's. The
   * simulated ZooKeeper (`SimulatedEnsemble.binding`) provides one with the same surface, so
   * that this facade and the supervisor above it run unchanged in simulations.
   */
  readonly binding?: NativeZooKeeperConstructor;
}

export type ZooKeeperHandleEvents = SessionHandleEvents;

export function toStat(raw: NativeStat): ZkStat {
  return {
    // zxids arrive as doubles: exact up to 2^53 (epoch < 2^21), which no real ensemble reaches.
    czxid: BigInt(raw.czxid),
    mzxid: BigInt(raw.mzxid),
    pzxid: BigInt(raw.pzxid),
    ctime: raw.ctime.getTime(),
    mtime: raw.mtime.getTime(),
    version: raw.version,
    cversion: raw.cversion,
    aversion: raw.aversion,
    ephemeralOwner: raw.ephemeralOwner,
    dataLength: raw.dataLength,
    numChildren: raw.numChildren,
  };
}

type NativeWatcher = (type: number, state: number, path: string) => void;

/** A watcher as handed to the C client, counted while the C client holds it (`watcherCount`). */
interface TrackedWatch {
  readonly callback: NativeWatcher;
  /** The reply's code says the C client kept the watcher. */
  registered(): void;
}

// Why this file is long: one promise method per request of the native binding, each with its own
// callback shape and the error it must carry (operation and path); splitting them by kind would
// only scatter the one convention they share.

/**
 * A typed promise facade over one handle of the `zookeeper` package, i.e. one ZooKeeper
 * session. When that session expires the handle is dead; `ZkSession` replaces it.
 *
 * It records when the ZooKeeper leader is last proven to have touched this session
 * (`lastContactAt`, monotonic ms; see `LeaderContact` for which replies prove it), which bounds
 * when the leader may expire it.
 */
export class ZooKeeperHandle implements SessionHandle {
  private readonly handle: NativeZooKeeper;
  private readonly native: NativeBinding;
  private readonly contact: LeaderContact;
  /** When the current connection attempt began: the handle's creation, or the last disconnection. */
  private attemptAt = performance.now();
  private closedCode: number | undefined;
  private watches = 0;

  constructor(
    options: ZooKeeperHandleOptions,
    private readonly events: ZooKeeperHandleEvents,
    resume?: { id: string; password: string },
  ) {
    this.contact = new LeaderContact(() => touchSlackMs(this.handle.timeout > 0 ? this.handle.timeout : options.sessionTimeoutMs));
    const ZooKeeper = options.binding ?? loadNativeZooKeeper();
    const config: Record<string, unknown> = {
      // Hosts shuffled here rather than by the C client: with a random host order it reads
      // /dev/urandom again on every reply (about 8% of a lock cycle's client CPU), and the flag is
      // process-wide. Spreading clients over the ensemble only needs one shuffle per session.
      connect: nativeConnectString(shuffleHosts(options.connectString)),
      timeout: options.sessionTimeoutMs,
      debug_level: LOG_LEVELS[options.clientLogLevel ?? 'silent'],
      host_order_deterministic: true,
    };
    if (resume) {
      config.client_id = resume.id;
      config.client_password = resume.password;
    }
    this.handle = new ZooKeeper(config);
    this.native = this.handle.native;
    this.handle.on('connect', () => {
      // The leader accepted (or revalidated) the session after it received the handshake, whose
      // send time the C client does not tell. The attempt's start precedes it for certain; "now"
      // does not, when this process stalled after the server answered, and every deadline measured
      // from it would be late by that stall.
      this.contact.connected(this.attemptAt);
      events.onConnected();
    });
    this.handle.on('connecting', () => {
      this.attemptAt = performance.now();
      events.onConnecting();
    });
    this.handle.on('close', (_handle, code) => {
      this.closedCode = code;
      events.onClosed(code);
    });
    this.handle.init({});
  }

  /** Session id as hex, as ZooKeeper prints it and as `ZkStat.ephemeralOwner` carries it. */
  get sessionId(): string {
    return this.handle.client_id;
  }

  /** Session password as hex: with the id, enough to resume (or, in tests, to expire) it. */
  get sessionPassword(): string {
    return this.handle.client_password;
  }

  /** The session timeout the server granted (it clamps the request to its min/max). */
  get negotiatedTimeoutMs(): number {
    return this.handle.timeout;
  }

  /** Monotonic ms: the leader touched this session at this time or later (`LeaderContact`). */
  get lastContactAt(): number {
    return this.contact.provenAt;
  }

  /** Monotonic ms: when the latest request that goes through the leader (a write, a sync) was sent. */
  get lastLeaderRequestAt(): number {
    return this.contact.lastLeaderSendAt;
  }

  get isClosed(): boolean {
    return this.closedCode !== undefined;
  }

  /**
   * Watches this session has set that have not fired yet: the C client keeps each one (and its
   * callback) until its node event arrives. The package has no removeWatches, so a watch whose
   * waiter gave up stays counted until its node changes or goes, or the session ends.
   */
  get watcherCount(): number {
    return this.isClosed ? 0 : this.watches;
  }

  /** The C client's close is synchronous: it waits (up to 1.5 s) for the server's answer itself. */
  close(): Promise<void> {
    if (this.closedCode === undefined) this.handle.close();
    return Promise.resolve();
  }

  create(path: string, data: Buffer | null = null, mode: CreateMode = 'persistent'): Promise<string> {
    return this.request('create', path, (done) =>
      this.native.a_create(path, data ?? EMPTY, CREATE_FLAGS[mode], (rc, err, created) => done(rc, err, created)),
    );
  }

  getChildren(path: string, watcher?: Watcher): Promise<{ children: string[]; stat: ZkStat }> {
    return this.request('getChildren', path, (done) => {
      const watch = watcher && this.track(watcher);
      const cb = (rc: number, err: string, children: string[] | null, stat: NativeStat | null) => {
        if (rc === 0) watch?.registered(); // the C client keeps a child watch only on success
        done(rc, err, rc === 0 ? { children: children ?? [], stat: toStat(stat!) } : undefined);
      };
      return watch ? this.native.aw_get_children2(path, watch.callback, cb) : this.native.a_get_children2(path, false, cb);
    });
  }

  getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: ZkStat }> {
    return this.request('getData', path, (done) => {
      const watch = watcher && this.track(watcher);
      const cb = (rc: number, err: string, stat: NativeStat | null, data: Buffer | null) => {
        if (rc === 0) watch?.registered(); // the C client keeps a data watch only on success
        done(rc, err, rc === 0 ? { data: data ?? EMPTY, stat: toStat(stat!) } : undefined);
      };
      return watch ? this.native.aw_get(path, watch.callback, cb) : this.native.a_get(path, false, cb);
    });
  }

  async exists(path: string, watcher?: Watcher): Promise<ZkStat | null> {
    try {
      return await this.request('exists', path, (done) => {
        const watch = watcher && this.track(watcher);
        const cb = (rc: number, err: string, stat: NativeStat | null) => {
          if (rc === 0 || rc === RC_NONODE) watch?.registered(); // an exists watch waits for a creation too
          done(rc, err, rc === 0 ? toStat(stat!) : null);
        };
        return watch ? this.native.aw_exists(path, watch.callback, cb) : this.native.a_exists(path, false, cb);
      });
    } catch (error) {
      // NONODE is an answer, not a failure; a watch was still registered for its creation.
      if (ZooKeeperError.is(error, 'NONODE')) return null;
      throw error;
    }
  }

  setData(path: string, data: Buffer, version: number): Promise<ZkStat> {
    return this.request('setData', path, (done) =>
      this.native.a_set(path, data, version, (rc, err, stat) => done(rc, err, rc === 0 ? toStat(stat!) : undefined)),
    );
  }

  delete(path: string, version = -1): Promise<void> {
    return this.request('delete', path, (done) => this.native.a_delete_(path, version, (rc, err) => done(rc, err, undefined)));
  }

  /**
   * Careful: when get_acl fails (NONODE, NOAUTH...), the package's binding frees a NULL ACL vector
   * and the process dies with SIGSEGV. Only ask for nodes that exist and that this session may
   * read; the recipes never call it.
   */
  getAcl(path: string): Promise<{ acl: ZkAcl[]; stat: ZkStat }> {
    return this.request('getAcl', path, (done) =>
      this.native.a_get_acl(path, (rc, err, acl, stat) =>
        done(
          rc,
          err,
          rc === 0 ? { acl: (acl ?? []).map((a) => ({ perms: a.perms, scheme: a.scheme, id: a.auth })), stat: toStat(stat!) } : undefined,
        ),
      ),
    );
  }

  setAcl(path: string, acl: readonly ZkAcl[], version = -1): Promise<void> {
    const native: NativeAcl[] = acl.map((a) => ({ perm: a.perms, scheme: a.scheme, auth: a.id }));
    return this.request('setAcl', path, (done) => this.native.a_set_acl(path, version, native, (rc, err) => done(rc, err, undefined)));
  }

  sync(path: string): Promise<void> {
    return this.request('sync', path, (done) => this.native.a_sync(path, (rc, err) => done(rc, err, undefined)));
  }

  /** Adds credentials to the session; the C client re-sends them after every reconnection. */
  addAuth(scheme: string, credentials: string): Promise<void> {
    return this.request('addAuth', undefined, (done) => this.native.add_auth(scheme, credentials, (rc, err) => done(rc, err, undefined)));
  }

  private track(watcher: Watcher): TrackedWatch {
    let state: 'sent' | 'held' | 'fired' = 'sent';
    return {
      callback: (type, _state, path) => {
        // The C client also hands every registered watcher each session event (connecting,
        // connected) without consuming the watch: those are not node events.
        if (type === NATIVE_SESSION_EVENT) return;
        if (state === 'held') this.watches -= 1;
        state = 'fired';
        const eventType = WATCH_EVENT_TYPES[type];
        if (eventType) watcher({ type: eventType, path });
      },
      registered: () => {
        if (state !== 'sent') return;
        state = 'held';
        this.watches += 1;
      },
    };
  }

  /**
   * Runs one native request. `send` returns the synchronous rc of the C call (negative when the
   * request was not even queued, e.g. INVALIDSTATE on a dead handle) and calls `done` later.
   */
  private request<T>(
    operation: string,
    path: string | undefined,
    send: (done: (rc: number, err: string, value?: T) => void) => number,
  ): Promise<T> {
    const route = routeOf(operation);
    return new Promise<T>((resolve, reject) => {
      const sentAt = performance.now();
      this.contact.sent(route, sentAt);
      let rc: number;
      try {
        rc = send((code, err, value) => {
          if (this.contact.replied(operation, sentAt, code)) this.events.onLeaderAnswer?.();
          if (code === 0) resolve(value as T);
          else reject(new ZooKeeperError(code, operation, path, err));
        });
      } catch (error) {
        reject(ZooKeeperError.from(error, operation, path));
        return;
      }
      if (rc !== 0) reject(new ZooKeeperError(rc, operation, path));
    });
  }
}
