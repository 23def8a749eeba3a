import type { CreateMode, Watcher, ZkAcl, ZkStat } from './types.js';

/**
 * The requests the recipes make, and nothing more. Both the single-session facade
 * (`ZooKeeperHandle`) and the session supervisor (`ZkSession`) implement it; tests wrap it to
 * inject faults at exact points while a real server answers.
 *
 * Every method rejects with `ZooKeeperError` (or `SessionClosedError` once closed).
 */
export interface ZkClient {
  /** Creates a znode; resolves with the created path (with the sequence suffix, if any). */
  create(path: string, data?: Buffer | null, mode?: CreateMode): Promise<string>;
  /**
   * Children names (unsorted) and the parent's stat, whose `pzxid` is the last child change; with a
   * watcher, a one-shot watch for a child's create or delete (or the node's deletion) is left behind.
   */
  getChildren(path: string, watcher?: Watcher): Promise<{ children: string[]; stat: ZkStat }>;
  /** Data and stat; with a watcher, a one-shot watch for change or deletion is left behind. */
  getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: ZkStat }>;
  /** Stat or null when the node does not exist; with a watcher, a one-shot watch is set either way. */
  exists(path: string, watcher?: Watcher): Promise<ZkStat | null>;
  /** Conditional write: `version` -1 means any version. */
  setData(path: string, data: Buffer, version: number): Promise<ZkStat>;
  /** Conditional delete: `version` -1 means any version. */
  delete(path: string, version?: number): Promise<void>;
  /** Only for nodes that exist and may be read: a failing getAcl crashes the package's binding (see ZooKeeperHandle). */
  getAcl(path: string): Promise<{ acl: ZkAcl[]; stat: ZkStat }>;
  setAcl(path: string, acl: readonly ZkAcl[], version?: number): Promise<void>;
  /** Makes the server this session talks to catch up with the leader for `path`. */
  sync(path: string): Promise<void>;
}
