import type { MultiOp, MultiResult } from './protocol/multi.js';
import type { WatcherType } from './protocol/op-codes.js';
import type { ServerAddress } from './connect-string.js';
import type { ZkClient } from './requests.js';
import type { CreateMode, Watcher, WatchEvent, ZkAcl, ZkIdentity, ZkStat } from './types.js';

/**
 * One ZooKeeper session as a driver gives it to the supervisor (`ZkSession`): the requests, the
 * session's identity, and what the leader is proven to have seen of it (`LeaderContact`). When
 * the session ends (expired, closed) the handle is dead and the supervisor opens another.
 * Two drivers implement it: `ProtocolHandle` (our TypeScript client, the default) and
 * `ZooKeeperHandle` (the `zookeeper` package's C client).
 */
export interface SessionHandle extends ZkClient {
  /** Session id as hex, as ZooKeeper prints it and as `ZkStat.ephemeralOwner` carries it. */
  readonly sessionId: string;
  /** Session password as hex: with the id, enough to resume (or, in tests, to expire) it. */
  readonly sessionPassword: string;
  /** The session timeout the server granted (it clamps the request to its min/max). */
  readonly negotiatedTimeoutMs: number;
  /** Monotonic ms: the leader touched this session at this time or later (`LeaderContact`). */
  readonly lastContactAt: number;
  /** Monotonic ms: when the latest request that goes through the leader (a write, a sync) was sent. */
  readonly lastLeaderRequestAt: number;
  readonly isClosed: boolean;
  /** Watches set and not fired yet (one per watcher given). */
  readonly watcherCount: number;
  /** Ends the session (closeSession); resolves once the driver has released its connection. */
  close(): Promise<void>;
  /** Adds credentials to the session; the driver re-sends them after every reconnection. */
  addAuth(scheme: string, credentials: string): Promise<void>;

  // The powers of the protocol that only some drivers have (the C client has none of them):
  // `ZkSession` refuses them with `DriverUnsupportedError` where they are missing.

  /** Creates with `acl` (and answers with the stat) in one request. */
  create2?(path: string, data: Buffer | null, mode: CreateMode, acl?: readonly ZkAcl[]): Promise<{ path: string; stat: ZkStat }>;
  /** All of `ops` or none. */
  multi?(ops: readonly MultiOp[]): Promise<MultiResult[]>;
  /** A watch on every change of `path` (or any node below, `recursive`) until removed. */
  addWatch?(path: string, recursive: boolean, listener: Watcher): Promise<void>;
  /** Drops this session's watch (or only `watcher`) on `path` on the server too. */
  removeWatches?(path: string, type: keyof typeof WatcherType, watcher?: Watcher): Promise<void>;
  getEphemerals?(prefixPath: string): Promise<string[]>;
  whoAmI?(): Promise<ZkIdentity[]>;
  /** The ensemble's configuration (`/zookeeper/config`, never under the chroot), with a data watch when `watcher` is given. */
  getConfig?(watcher?: Watcher): Promise<{ data: Buffer; stat: ZkStat }>;
  /** The servers to dial from now on (the ensemble's membership changed); a connection to one of `left` (servers that left it) moves. */
  updateServers?(hosts: readonly ServerAddress[], left: readonly ServerAddress[]): void;
}

/**
 * Why a handle died (`SessionHandleEvents.onClosed`): the `zookeeper` package's codes, which the
 * TypeScript driver reports too.
 */
export const HANDLE_CLOSED = { byUs: 0, expired: -112, authFailed: -113 } as const;

export interface SessionHandleEvents {
  /** Connected to a server; the session id is known. Fires again after each reconnection. */
  onConnected(): void;
  /** The TCP connection dropped; the driver is trying the servers again. */
  onConnecting(): void;
  /** The handle is dead: `code` 0 = closed by us, -112 = session expired, -113 = auth failed. */
  onClosed(code: number): void;
  /** A request through the leader was answered: `lastContactAt` may have moved. */
  onLeaderAnswer?(): void;
  /** A watcher threw while handling `event`; the driver went on with the others. */
  onWatcherError?(error: unknown, event: WatchEvent): void;
  /** A connection attempt to `server` (`host:port`) failed before it carried the session (drivers that can tell). */
  onAttemptFailed?(server: string, reason: Error): void;
}
