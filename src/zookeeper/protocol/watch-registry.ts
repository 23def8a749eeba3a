import type { Watcher, WatchEvent, WatchEventType } from '../types.js';
import { parentOf } from '../znode-path.js';
import { EventType } from './op-codes.js';
import type { WatchesToRestore } from './operations.js';

/** Which table a one-shot watch lives in (`ZKWatchManager`): exists on a missing node is an `exist` watch. */
export type WatchKind = 'data' | 'exist' | 'child';

const EVENT_TYPES: Record<number, WatchEventType> = {
  [EventType.nodeCreated]: 'created',
  [EventType.nodeDeleted]: 'deleted',
  [EventType.nodeDataChanged]: 'changed',
  [EventType.nodeChildrenChanged]: 'child',
};

/** Which one-shot tables a node event empties for its path (`ZKWatchManager.materialize`). */
const FIRES: Record<WatchEventType, readonly WatchKind[]> = {
  created: ['data', 'exist'],
  changed: ['data', 'exist'],
  deleted: ['data', 'exist', 'child'],
  child: ['child'],
  notwatching: [],
};

/**
 * The watches this client holds, by path, as the server holds them for the session: one-shot
 * watches (each caller's watcher fires once) and persistent ones (fire on every event until
 * removed). The server keeps one watch per path and kind for the whole session; after a
 * reconnection `toRestore` lists them for `setWatches`, so that none is lost with a connection.
 */
export class WatchRegistry {
  private readonly oneShot: Record<WatchKind, Map<string, Watcher[]>> = { data: new Map(), exist: new Map(), child: new Map() };
  private readonly persistent = new Map<string, Set<Watcher>>();
  private readonly recursive = new Map<string, Set<Watcher>>();
  private oneShotCount = 0;
  /** Watched reads sent and not answered yet, by path (see `sending`). */
  private readonly unanswered: Record<'data' | 'child', Map<string, number>> = { data: new Map(), child: new Map() };

  /** `onWatcherError`: where a watcher's exception goes; it must not stop the others, nor the reading of the connection. */
  constructor(private readonly onWatcherError: (error: unknown, event: WatchEvent) => void) {}

  /** One-shot watchers registered and not fired yet, plus persistent listeners. */
  get count(): number {
    let listeners = 0;
    for (const set of this.persistent.values()) listeners += set.size;
    for (const set of this.recursive.values()) listeners += set.size;
    return this.oneShotCount + listeners;
  }

  add(kind: WatchKind, path: string, watcher: Watcher): void {
    const table = this.oneShot[kind];
    const list = table.get(path);
    if (list) list.push(watcher);
    else table.set(path, [watcher]);
    this.oneShotCount += 1;
  }

  /**
   * A read that sets a `kind` watch on `path` goes out; call what this returns once its reply is
   * read or it failed without one (more than once is harmless). Until then `remove` leaves the
   * server's watch alone: that read, sent before a removal, sets the watch on the server first, and
   * its watcher is registered only as its reply is read.
   */
  sending(kind: WatchKind, path: string): () => void {
    const table = this.unanswered[kind === 'child' ? 'child' : 'data'];
    table.set(path, (table.get(path) ?? 0) + 1);
    let answered = false;
    return () => {
      if (answered) return;
      answered = true;
      const left = table.get(path)! - 1;
      if (left > 0) table.set(path, left);
      else table.delete(path);
    };
  }

  addPersistent(path: string, recursive: boolean, listener: Watcher): void {
    const table = recursive ? this.recursive : this.persistent;
    let set = table.get(path);
    if (!set) table.set(path, (set = new Set()));
    set.add(listener);
  }

  /**
   * Forgets watchers of `path` (all of the kinds, or only `watcher`) and says whether the server
   * still has to be told: only when no watcher of this client needs the server's watch any more.
   */
  remove(path: string, kinds: readonly ('data' | 'child' | 'persistent')[], watcher?: Watcher): { removed: Watcher[]; serverStillNeeded: boolean } {
    const removed: Watcher[] = [];
    const take = <T extends Watcher>(list: T[] | Set<T> | undefined, keep: (w: T) => void) => {
      if (!list) return;
      for (const w of [...list]) {
        if (watcher && w !== watcher) keep(w);
        else removed.push(w);
      }
    };
    for (const kind of kinds) {
      const tables: WatchKind[] = kind === 'data' ? ['data', 'exist'] : kind === 'child' ? ['child'] : [];
      for (const table of tables) {
        const kept: Watcher[] = [];
        const before = this.oneShot[table].get(path);
        take(before, (w) => kept.push(w));
        this.oneShotCount -= (before?.length ?? 0) - kept.length;
        if (kept.length > 0) this.oneShot[table].set(path, kept);
        else this.oneShot[table].delete(path);
      }
      if (kind === 'persistent') {
        for (const table of [this.persistent, this.recursive]) {
          const kept = new Set<Watcher>();
          take(table.get(path), (w) => kept.add(w));
          if (kept.size > 0) table.set(path, kept);
          else table.delete(path);
        }
      }
    }
    const serverStillNeeded = kinds.some((kind) =>
      kind === 'data'
        ? this.oneShot.data.has(path) || this.oneShot.exist.has(path) || this.unanswered.data.has(path)
        : kind === 'child'
          ? this.oneShot.child.has(path) || this.unanswered.child.has(path)
          : this.persistent.has(path) || this.recursive.has(path),
    );
    return { removed, serverStillNeeded };
  }

  /** A notification from the server (`path` already without the chroot). */
  dispatch(type: number, path: string): void {
    const eventType = EVENT_TYPES[type];
    if (!eventType) return; // session events and watch-removed events concern no node watcher here
    const event = { type: eventType, path };
    const fired: Watcher[] = [];
    for (const kind of FIRES[eventType]) {
      const list = this.oneShot[kind].get(path);
      if (!list) continue;
      this.oneShot[kind].delete(path);
      this.oneShotCount -= list.length;
      fired.push(...list);
    }
    for (const listener of this.persistent.get(path) ?? []) fired.push(listener);
    // A recursive watch reports what happens to nodes, not child-list changes (`ZKWatchManager`).
    if (eventType !== 'child') {
      for (let at = path; ; at = parentOf(at)) {
        for (const listener of this.recursive.get(at) ?? []) fired.push(listener);
        if (at === '/') break;
      }
    }
    for (const watcher of fired) {
      try {
        watcher(event);
      } catch (error) {
        this.onWatcherError(error, event);
      }
    }
  }

  /** Every path the server should watch again for this session, by kind, as `setWatches` takes them. */
  toRestore(toServerPath: (path: string) => string): WatchesToRestore {
    const paths = (table: Map<string, unknown>) => [...table.keys()].map(toServerPath);
    return {
      data: paths(this.oneShot.data),
      exist: paths(this.oneShot.exist),
      child: paths(this.oneShot.child),
      persistent: paths(this.persistent),
      persistentRecursive: paths(this.recursive),
    };
  }

  /** The session is gone: its watches are too (the server dropped them with it). */
  clear(): void {
    for (const table of Object.values(this.oneShot)) table.clear();
    this.persistent.clear();
    this.recursive.clear();
    this.oneShotCount = 0;
  }
}

/** Two registries' watches for one `setWatches` (the chrooted ones and the config node's), each server path once. */
export function mergeWatches(a: WatchesToRestore, b: WatchesToRestore): WatchesToRestore {
  const merge = (x: readonly string[], y: readonly string[]) => [...new Set([...x, ...y])];
  return { data: merge(a.data, b.data), exist: merge(a.exist, b.exist), child: merge(a.child, b.child), persistent: merge(a.persistent, b.persistent), persistentRecursive: merge(a.persistentRecursive, b.persistentRecursive) };
}
