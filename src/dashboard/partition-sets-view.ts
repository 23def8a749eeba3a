import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { inspectPartitionSet, type InspectedPartitionSet, type KnownNodes } from '../cli/inspect.js';
import { childrenOrNone } from '../zookeeper/children-or-none.js';
import type { ZkSessionClient } from '../zookeeper/session-requests.js';
import type { Watcher } from '../zookeeper/types.js';
import { byName } from './dashboard-view.js';
import type { WatchTarget } from './watch-targets.js';

/** The stale marks of the partition sets (see `Stale`): the listing, and the sets to read again. */
export interface PartitionSetsStale {
  /** `undefined`: no listing; `false`: the new sets; `true`: all of them. */
  every: boolean | undefined;
  readonly names: Set<string>;
}

/**
 * The dashboard's picture of the partition sets under the root (`PartitionSet`): one reading per
 * set (members, assignment, assigner, each partition's lock: `inspectPartitionSet`), taken again
 * when a change below `<root>/partitions/<set>` is reported. Where one-shot watches stand in for
 * the root watch, a set is watched on its members, its assignment and each partition's lock
 * directory: a join or leave, a new assignment, a change of owner or of waiters.
 */
export class PartitionSetsView {
  private readonly sets = new Map<string, InspectedPartitionSet>();

  constructor(
    private readonly session: ZkSessionClient,
    private readonly root: string,
  ) {}

  values(): InspectedPartitionSet[] {
    return byName(this.sets);
  }

  /**
   * Reads what `stale` marks: lists the sets when asked (watched by `listWatcher`), drops those
   * gone, then reads the sets named and, after a listing, the new ones (all with `every`). One-shot
   * watches (`watch`, true when it set one) go out before a set's reading, on the same session, for
   * what its last reading showed; what only this reading showed is watched after it: those sets are
   * returned, to be read once more.
   */
  async read(stale: PartitionSetsStale, known: KnownNodes, listWatcher: () => Watcher | undefined, watch: (target: WatchTarget, set: string) => boolean): Promise<string[]> {
    if (stale.every === undefined && stale.names.size === 0) return [];
    const names = new Set(stale.names);
    if (stale.every !== undefined) {
      const listed = await this.list(listWatcher);
      for (const name of [...this.sets.keys()]) if (!listed.includes(name)) this.sets.delete(name);
      for (const name of listed) if (stale.every || !this.sets.has(name)) names.add(name);
    }
    const late: string[] = [];
    await Promise.all(
      [...names].map(async (name) => {
        const before = new Set(this.targetsOf(name).filter((target) => watch(target, name)).map((target) => target.path));
        const set = await inspectPartitionSet(this.session, this.root, name, known);
        if (set) this.sets.set(name, set);
        else this.sets.delete(name);
        if (this.targetsOf(name).some((target) => !before.has(target.path) && watch(target, name))) late.push(name);
      }),
    );
    return late;
  }

  /** The sets' names, watched by `listWatcher`'s watcher where it gives one; none while `<root>/partitions` does not exist (then its creation is watched). */
  private async list(listWatcher: () => Watcher | undefined): Promise<string[]> {
    const dir = `${this.root}/partitions`;
    const watcher = listWatcher();
    if (!watcher) return childrenOrNone(this.session, dir);
    try {
      return (await this.session.getChildren(dir, watcher)).children;
    } catch (error) {
      if (!ZooKeeperError.is(error, 'NONODE')) throw error;
      // No set yet: an exists watch fires when the first one is made (listed then, if made meanwhile).
      return (await this.session.exists(dir, watcher)) === null ? [] : childrenOrNone(this.session, dir);
    }
  }

  /** The one-shot watches of set `name`, of what its last reading showed: its members, its assignment, and each partition's lock. */
  private targetsOf(name: string): WatchTarget[] {
    const set = this.sets.get(name);
    if (!set) return [];
    const dir = set.path;
    return [
      { path: `${dir}/members`, kind: 'children' },
      ...(set.count === null ? [] : [{ path: `${dir}/assignment`, kind: 'data' } as const]),
      ...set.partitions.filter((p) => p.owner || p.waiters.length > 0).map((p): WatchTarget => ({ path: `${dir}/locks/${p.partition}`, kind: 'children' })),
    ];
  }
}
