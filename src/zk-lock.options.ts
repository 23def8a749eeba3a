import type { LeaderSuspendPolicy } from './recipes/election/leadership-term.js';
import type { ZkDriver } from './zookeeper/open-session-handle.js';
import type { ZkTlsOptions } from './zookeeper/protocol/server-link.js';
import type { ClientLogLevel } from './zookeeper/zookeeper-handle.js';
import { DEFAULT_MAX_RECORD_BYTES, type ZkAcl, type ZkAuth } from './zookeeper/types.js';

/** Options of `ZkLockModule.forRoot` / `forRootAsync`. */
export interface ZkLockModuleOptions {
  /** ZooKeeper connect string: `host:port[,host:port...][/chroot]`, e.g. `zk1:2181,zk2:2181,zk3:2181`. */
  connect: string;
  /** Znode under which all locks and elections live. Default `/zk-lock`. */
  root?: string;
  /**
   * Requested session timeout (ms). Default 30000. The server clamps it to
   * [2, 20] × its tickTime unless configured otherwise. A crashed holder's lock is freed after it.
   */
  sessionTimeoutMs?: number;
  /**
   * How long start-up waits for the first session before failing with `ConnectTimeoutError`.
   * Default 15000; 2000 under a test runner (`JEST_WORKER_ID`, `VITEST` or `NODE_TEST_CONTEXT`
   * set), so that a missing server fails before the runner's hook timeout (Jest's is 5 s).
   */
  connectTimeoutMs?: number;
  /** Credentials added to the session, e.g. `{ scheme: 'digest', credentials: 'app:secret' }`. */
  auth?: ZkAuth | readonly ZkAuth[];
  /**
   * ACL of the znodes this module creates: `root` (when it creates it) and every lock, election,
   * queue and ready node under it. `creator` (the default when `auth` is given): only sessions
   * authenticated as the same identity can read, write, create, delete or change them, so other
   * clients can neither delete a holder's node nor overwrite ready state. `open` (the default
   * without `auth`): ZooKeeper's world-writable default. Or an explicit list of entries.
   * Given in the create itself; with `driver: 'native'` (whose C client cannot pass an ACL to
   * create) it costs one setAcl per created node.
   */
  acl?: 'creator' | 'open' | readonly ZkAcl[];
  /**
   * TLS to the servers' `secureClientPort`: `node:tls` connection options such as `ca`, `cert`,
   * `key`, `servername`, `rejectUnauthorized`. With `cert` and `key` the session is authenticated
   * as the certificate's subject DN under the `x509` ACL scheme. Not with `driver: 'native'`.
   */
  tls?: ZkTlsOptions;
  /**
   * Which ZooKeeper client speaks for the module: `typescript` (default), the library's own, or
   * `native`, the C client of the `zookeeper` package (an optional peer dependency: the project installs it).
   */
  driver?: ZkDriver;
  /** Log level of the ZooKeeper C client (stderr), `driver: 'native'` only. Default `silent`: state changes go to Nest's Logger. */
  clientLogLevel?: ClientLogLevel;
  /**
   * Follow the ensemble's membership (`/zookeeper/config`): connect to the servers it lists from
   * then on, so that the process keeps working after the servers of `connect` were replaced by a
   * reconfig. Default true. Turn it off where the configuration's client addresses cannot be
   * reached from here (servers behind port mapping, a proxy or NAT). `driver: 'typescript'` only.
   */
  followEnsemble?: boolean;
  /** Who this process is, stored in its queue nodes and ready records. Default `<hostname>:<pid>`. */
  identity?: string;
  /**
   * Largest record (bytes) written into a znode: checkpoints, ready records, identities, anything
   * passed to a create or setData. Larger writes fail with `RecordTooLargeError` before anything is
   * sent. Default 524288 (512 KiB), half of ZooKeeper's default `jute.maxbuffer` (1 MiB - 1), which
   * bounds a whole request: over it the server drops the connection instead of answering. Raise it
   * only together with `jute.maxbuffer` on every server.
   */
  maxRecordBytes?: number;
  /** On shutdown, how long running locked sections may take to finish before their locks are released. Default 10000. */
  drainTimeoutMs?: number;
  /**
   * The default leader election (`LeaderService`); see `ZkLockElectionOptions`. When given, this
   * process joins it on bootstrap. Without it, an election joins only once something asks for it
   * (`@LeaderOnly`, `@OnLeaderRecovery`, `leaderService.isLeader$` / `election(name)`), so a
   * lock-only application takes part in no election.
   */
  election?: ZkLockElectionOptions;
  /**
   * Partition sets this process takes part in (`PartitionService`, `@ForEachOwnedPartition`), each
   * in `<root>/partitions/<name>`; every replica of a set must declare the same `count`. They join
   * on bootstrap and leave on shutdown (running work gets `drainTimeoutMs`).
   */
  partitions?: readonly ZkLockPartitionOptions[];
}

/** One partition set (`ZkLockModuleOptions.partitions`). */
export interface ZkLockPartitionOptions {
  /** The set's name (one znode name, as lock names). */
  name: string;
  /** How many partitions: 0 … count - 1. A positive integer, the same on every replica. */
  count: number;
  /** This replica's weight: a replica of capacity 2 owns twice the partitions of one of capacity 1. Default 1. */
  capacity?: number;
}

/** Options of the default election (`ZkLockModuleOptions.election`). */
export interface ZkLockElectionOptions {
  /** Name of the default election, in `<root>/elections/<name>`. Default `default`. */
  name?: string;
  /** Join every election of the module on application bootstrap. Default true; false: call `join()`. */
  joinOnBootstrap?: boolean;
  /**
   * When a disconnected leader stops reporting leadership (for every election of the module):
   * `immediate` (default) as soon as the connection is suspended; `deadline` only once the
   * session may have expired (`lost`), keeping leadership through short network blips.
   */
  suspendPolicy?: LeaderSuspendPolicy;
  /**
   * Once per process, when the module's first election exists after bootstrap: rehearses three
   * hand-overs of the election's code on a simulated ZooKeeper in memory (no request, no event, no
   * log line; a few ms of CPU), so that this process's first real hand-over runs compiled code
   * instead of waiting for V8 to compile it (docs/benchmarks.md, "A fast first hand-over", has what it buys).
   * Default true.
   */
  warmUpHandOver?: boolean;
}

/** Options after validation, with every default filled in. */
export interface ResolvedZkLockOptions {
  readonly connect: string;
  readonly root: string;
  readonly sessionTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly auth: readonly ZkAuth[];
  /** The ACL given to created nodes; undefined: ZooKeeper's open default, no setAcl. */
  readonly acl: readonly ZkAcl[] | undefined;
  readonly clientLogLevel: ClientLogLevel;
  readonly followEnsemble: boolean;
  readonly driver: ZkDriver;
  readonly tls: ZkTlsOptions | undefined;
  readonly identity: string;
  readonly drainTimeoutMs: number;
  readonly maxRecordBytes: number;
  readonly election: Required<Readonly<ZkLockElectionOptions>>;
  /** Whether `election` was given: only then does the default election join without being asked for. */
  readonly electionConfigured: boolean;
  readonly partitions: readonly Required<Readonly<ZkLockPartitionOptions>>[];
}

export const ZK_LOCK_DEFAULTS = {
  root: '/zk-lock',
  sessionTimeoutMs: 30_000,
  connectTimeoutMs: 15_000,
  clientLogLevel: 'silent',
  followEnsemble: true,
  driver: 'typescript',
  drainTimeoutMs: 10_000,
  maxRecordBytes: DEFAULT_MAX_RECORD_BYTES,
  election: { name: 'default', joinOnBootstrap: true, suspendPolicy: 'immediate', warmUpHandOver: true },
} as const;
