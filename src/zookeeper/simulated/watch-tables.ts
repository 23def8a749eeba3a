import type { ZkAcl } from '../types.js';
import { parentOf } from '../znode-path.js';

/** A watch notification: `session` is to be told `type` happened at `path`. */
export interface Notification {
  readonly session: bigint;
  readonly type: 'created' | 'deleted' | 'changed' | 'child';
  readonly path: string;
  /**
   * The ACL of the node whose change it reports (a child event: the parent's): the server sends it
   * only to a connection that may READ that node (`NIOServerCnxn.process`). Undefined: no check
   * (the events `SetWatches` fires).
   */
  readonly acl?: readonly ZkAcl[];
}

/** The watches a client sends again after a reconnection (`SetWatches`; `SetWatches2` adds the persistent ones). */
export interface ResentWatches {
  readonly data: readonly string[];
  readonly exist: readonly string[];
  readonly child: readonly string[];
  readonly persistent?: readonly string[];
  readonly recursive?: readonly string[];
}

/** `WatcherMode`: a one-shot watch of a read, or one left by `addWatch` (ZooKeeper 3.6+), on a node or (`recursive`) on it and every node below it. */
export type WatchMode = 'standard' | 'persistent' | 'recursive';

/** Which of the server's two `WatchManager`s: `data` (getData and exists watches), `child` (getChildren). */
export type WatchTable = 'data' | 'child';

type Table = Map<string, Map<bigint, WatchMode>>;

/**
 * The watches one server keeps for its clients, as ZooKeeper's `DataTree` keeps them: two
 * `WatchManager`s, each a table of path → session → mode. `addWatch` puts a persistent watch in
 * both tables, a recursive one in the data table only (the child table would never fire it:
 * `triggerWatch` skips recursive watches for child events). A trigger (`WatchManager.triggerWatch`)
 * tells every session once: those with a watch on the path itself (a one-shot one is removed), and
 * those with a recursive watch on the path or any node above it, but for child events.
 */
export class WatchTables {
  private readonly tables: Record<WatchTable, Table> = { data: new Map(), child: new Map() };
  /** How many recursive watches stand: without any, a trigger need not walk up the tree. */
  private recursive = 0;

  /** Leaves a watch; like `WatcherModeManager.setWatcherMode`, the mode of the session's watch on that path becomes `mode`. */
  add(table: WatchTable, path: string, session: bigint, mode: WatchMode = 'standard'): void {
    let sessions = this.tables[table].get(path);
    if (!sessions) this.tables[table].set(path, (sessions = new Map()));
    if (sessions.get(session) === 'recursive') this.recursive--;
    if (mode === 'recursive') this.recursive++;
    sessions.set(session, mode);
  }

  /** `addWatch`: a persistent watch on `path`, or a recursive one on it and below. */
  addPersistent(path: string, session: bigint, recursive: boolean): void {
    this.add('data', path, session, recursive ? 'recursive' : 'persistent');
    if (!recursive) this.add('child', path, session, 'persistent');
  }

  /** Whether any session has a watch of any mode on `path` in `table`. */
  has(table: WatchTable, path: string): boolean {
    return this.tables[table].has(path);
  }

  /** Whether `session` has a watch on `path` in `table`; with `remove`, it has none left there (`WatchManager.removeWatcher`). */
  holds(table: WatchTable, path: string, session: bigint, remove: boolean): boolean {
    const sessions = this.tables[table].get(path);
    const mode = sessions?.get(session);
    if (!sessions || mode === undefined) return false;
    if (remove) this.drop(table, path, sessions, session);
    return true;
  }

  /** Drops every watch of `session` (its connection to this server closed). */
  forget(session: bigint): void {
    for (const table of ['data', 'child'] as const) {
      for (const [path, sessions] of this.tables[table]) if (sessions.has(session)) this.drop(table, path, sessions, session);
    }
  }

  /**
   * Fires `type` at `path` in `table`: one notification per session (but those in `suppress`, told
   * already by the same change), pushed on `fired`; returns every session the trigger found, for a
   * later trigger of the same change to suppress.
   */
  trigger(table: WatchTable, path: string, type: Notification['type'], acl: readonly ZkAcl[] | undefined, fired: Notification[], suppress?: ReadonlySet<bigint>): Set<bigint> {
    const found = new Set<bigint>();
    const here = this.tables[table].get(path);
    for (const [session, mode] of here ?? []) {
      if (mode === 'recursive' && type === 'child') continue;
      found.add(session);
      if (mode === 'standard') this.drop(table, path, here!, session);
    }
    if (this.recursive > 0 && type !== 'child') {
      for (let above = path; above !== '/'; ) {
        above = parentOf(above);
        for (const [session, mode] of this.tables[table].get(above) ?? []) if (mode === 'recursive') found.add(session);
      }
    }
    for (const session of found) if (!suppress?.has(session)) fired.push({ session, type, path, acl });
    return found;
  }

  private drop(table: WatchTable, path: string, sessions: Map<bigint, WatchMode>, session: bigint): void {
    if (sessions.get(session) === 'recursive') this.recursive--;
    sessions.delete(session);
    if (sessions.size === 0) this.tables[table].delete(path);
  }
}
