/** How a znode is created. */
export type CreateMode =
  | 'persistent'
  | 'persistent_sequential'
  | 'ephemeral'
  | 'ephemeral_sequential'
  | 'container';

/** ZooKeeper's `Stat` of a znode, with the 64-bit zxids as `bigint`. */
export interface ZkStat {
  /** zxid of the transaction that created the node. */
  readonly czxid: bigint;
  /** zxid of the last data change. */
  readonly mzxid: bigint;
  /** zxid of the last change to the node's children (create or delete of a child). */
  readonly pzxid: bigint;
  readonly ctime: number;
  readonly mtime: number;
  /** Data version, for conditional `setData` / `delete`. */
  readonly version: number;
  readonly cversion: number;
  readonly aversion: number;
  /** Session id (hex) owning an ephemeral node; `'0'` for persistent nodes. */
  readonly ephemeralOwner: string;
  readonly dataLength: number;
  readonly numChildren: number;
}

export type WatchEventType = 'created' | 'deleted' | 'changed' | 'child' | 'notwatching';

/** A one-shot node watch fired by the server. */
export interface WatchEvent {
  readonly type: WatchEventType;
  readonly path: string;
}

export type Watcher = (event: WatchEvent) => void;

/** An ACL entry: `scheme` is `world`, `auth`, `digest` or `ip`; `id` its identity. */
export interface ZkAcl {
  readonly perms: number;
  readonly scheme: string;
  readonly id: string;
}

export const ZK_PERMS = { READ: 1, WRITE: 2, CREATE: 4, DELETE: 8, ADMIN: 16, ALL: 31 } as const;

/** Anyone may do anything (ZooKeeper's default for every create made through the package). */
export const OPEN_ACL_UNSAFE: readonly ZkAcl[] = [{ perms: ZK_PERMS.ALL, scheme: 'world', id: 'anyone' }];
/** Only the identities authenticated on the creating session. */
export const CREATOR_ALL_ACL: readonly ZkAcl[] = [{ perms: ZK_PERMS.ALL, scheme: 'auth', id: '' }];

/** Every znode created at or below `root` gets `acl` (the module's root and everything in it). */
export interface ZnodeAclPolicy {
  readonly root: string;
  readonly acl: readonly ZkAcl[];
}

/** An identity the server authenticated a session as (`whoAmI`): `ip`, `digest`, `x509`, `sasl`… */
export interface ZkIdentity {
  readonly scheme: string;
  readonly user: string;
}

/** Digest credentials, re-applied by the supervisor to every new session. */
export interface ZkAuth {
  readonly scheme: string;
  readonly credentials: string;
}

/**
 * Default bound of one record: half of ZooKeeper's default `jute.maxbuffer` (1 MiB - 1), which
 * bounds a whole request packet (header, path, ACL, data) and every transaction in the server's
 * log and snapshots; the half leaves room for those, and znodes meant for coordination hold far less.
 */
export const DEFAULT_MAX_RECORD_BYTES = 512 * 1024;
