import { DriverUnsupportedError } from '../errors/driver-unsupported.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import type { ZkSessionClient } from '../zookeeper/session-requests.js';
import type { WatchEvent } from '../zookeeper/types.js';
import type { PartitionSetsStale } from './partition-sets-view.js';
import { CATEGORIES, type Category } from './watch-targets.js';

/**
 * What a change below the root makes stale: a category's listing (its new names, or all), one
 * name, the listing of the partition sets (`<root>/partitions`), or one partition set.
 */
export type Stale =
  | { readonly category: Category; readonly every?: boolean }
  | { readonly name: string }
  | { readonly partitionSets: true; readonly every?: boolean }
  | { readonly partitionSet: string };

/** Everything: every category listed, every name read, every partition set read. */
export const EVERYTHING: readonly Stale[] = [...CATEGORIES.map((category) => ({ category, every: true })), { partitionSets: true, every: true }];

/**
 * The dashboard's one persistent recursive watch on its root (`addWatch`, ZooKeeper 3.6+): every
 * node created, changed or deleted below the root is one event that names it, so no directory
 * needs a watch of its own, none has to be set again after it fires, and no directory is listed
 * again only to learn which child a child watch fired for. Set once per session while someone
 * views, removed when the last viewer leaves (it would otherwise report every change below the
 * root for nothing). Where the driver has no persistent watches (`driver: 'native'`) or the server
 * refuses them (UNIMPLEMENTED, before 3.6), `set` answers false and the dashboard keeps one
 * one-shot watch per directory.
 *
 * What it cannot do: a server does not replay the changes made while the connection was down for
 * a persistent watch it is given again after a reconnection (one-shot watches fire then), so
 * after a reconnection the dashboard reads everything again (`missedChanges`).
 */
export class RootWatch {
  /** The session the watch stands on, and its listener (to remove it). */
  private standing: { readonly sessionId: string; readonly listener: (event: WatchEvent) => void } | undefined;
  /** Persistent watches are known unavailable (driver or server): not asked again. */
  private unavailable = false;

  constructor(
    private readonly session: ZkSessionClient,
    private readonly root: string,
    private readonly onStale: (stale: Stale) => void,
  ) {}

  /** The watch stands on the current session: one-shot watches are not needed. */
  get stands(): boolean {
    return this.standing !== undefined && this.standing.sessionId === this.session.sessionId;
  }

  /**
   * Sets the watch on the current session unless it stands there. Resolves true when it stands
   * (set before any reading that follows, on the same session: no change falls between the two),
   * false where persistent watches are unavailable. Other failures (a dropped connection) reject.
   */
  async set(): Promise<boolean> {
    if (this.unavailable) return false;
    if (this.stands) return true;
    const sessionId = this.session.sessionId;
    if (sessionId === undefined) return false;
    const listener = (event: WatchEvent) => {
      if (this.standing?.listener !== listener) return; // removed meanwhile
      const stale = staleOf(this.root, event.path);
      for (const each of stale) this.onStale(each);
    };
    try {
      await this.session.addWatch(this.root, true, listener);
    } catch (error) {
      if (error instanceof DriverUnsupportedError || ZooKeeperError.is(error, 'UNIMPLEMENTED')) {
        this.unavailable = true;
        return false;
      }
      throw error;
    }
    this.standing = { sessionId, listener };
    return true;
  }

  /** Nobody views: the watch goes, here and on the server. */
  remove(): void {
    const standing = this.standing;
    this.standing = undefined;
    if (!standing || standing.sessionId !== this.session.sessionId) return; // went with its session
    this.session.removeWatches(this.root, 'any', standing.listener).catch(() => undefined); // its session's end or a dropped connection drops it too
  }
}

/**
 * What the change of `path` makes stale: below `<root>/<category>/<name>` that name; the name's
 * own directory (made or gone) also the category's listing; a category directory (or the root)
 * the category's (every) listing, everything it holds being new or gone.
 */
export function staleOf(root: string, path: string): Stale[] {
  if (path === root) return [...EVERYTHING];
  if (!path.startsWith(`${root}/`)) return [];
  const [category, name, ...below] = path.slice(root.length + 1).split('/');
  if (category === 'partitions') {
    if (name === undefined) return [{ partitionSets: true, every: true }];
    return below.length === 0 ? [{ partitionSets: true }, { partitionSet: name }] : [{ partitionSet: name }];
  }
  if (!(CATEGORIES as readonly string[]).includes(category!)) return [];
  if (name === undefined) return [{ category: category as Category, every: true }];
  return below.length === 0 ? [{ category: category as Category }, { name }] : [{ name }];
}

/** A batch of stale marks, grouped: the names to read (with the categories each was listed in), the category listings (all of it, or its new names), the partition sets. */
export function groupStale(batch: readonly Stale[]) {
  const names = new Map<string, Set<Category>>();
  const named = (name: string) => names.get(name) ?? names.set(name, new Set()).get(name)!;
  const categories = new Map<Category, boolean>();
  const partitions: PartitionSetsStale = { every: undefined, names: new Set() };
  for (const stale of batch) {
    if ('name' in stale) named(stale.name);
    else if ('partitionSet' in stale) partitions.names.add(stale.partitionSet);
    else if ('partitionSets' in stale) partitions.every = partitions.every === true || stale.every === true;
    else categories.set(stale.category, categories.get(stale.category) === true || stale.every === true);
  }
  return { names, named, categories, partitions };
}
