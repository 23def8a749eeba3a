/**
 * The queue nodes of lock, read/write lock and election waiters that no holder (or leader) can
 * stand on, read from the leader's tree: the victims an operator may delete (the `operator-delete` fault) with the library
 * held to surviving it, whatever the timing.
 *
 * A node counts as a waiter when, by its recipe's own rule (`placeIn` with the recipe's driver),
 * the session-owned nodes the leader has now put something ahead of it that it must wait for: a
 * lock's or election's node or a writer anything at all, a reader a writer. Such a node cannot hold, nor have
 * held, on a listing: what is ahead of it now was created before it (sequence order is creation
 * order) and is still there, so it was in every state of the tree that held our node, and every
 * listing that showed our node (from the leader, or from a follower that lags, which shows more
 * nodes ahead, never fewer) showed it ahead. Nor on a hand-off: that needs the node ahead of it
 * deleted. So the deletion takes no holder's node; the library must notice that its node is gone
 * before it would hold on it, and queue again (unlike a holder's node deleted under it, which
 * makes two holders whatever the library does).
 */
import { LOCK_DRIVER, placeIn } from '../../src/recipes/queue/queue-driver.js';
import { sortQueue, type QueueMarker } from '../../src/recipes/queue/queue-node.js';
import { READ_DRIVER } from '../../src/recipes/read-write/read-write-drivers.js';

/** A node of the leader's tree: its path and its owner (hex session id, `0` for persistent ones). */
export interface TreeNode {
  readonly path: string;
  readonly owner: string;
}

/** The queue directories of the workload's locks, read/write locks and election under `root`, and what queues in each. */
function queueOf(root: string, dir: string): readonly QueueMarker[] | undefined {
  if (new RegExp(`^${root}/locks/[^/]+$`).test(dir)) return ['lock'];
  if (new RegExp(`^${root}/elections/[^/]+$`).test(dir)) return ['n'];
  if (new RegExp(`^${root}/rwlocks/[^/]+$`).test(dir)) return ['read', 'write'];
  return undefined;
}

/** The nodes of `nodes` (the leader's tree) that wait in a lock's, read/write lock's or election's queue under `root`. */
export function waitingNodes(nodes: readonly TreeNode[], root: string): TreeNode[] {
  const dirs = new Map<string, Map<string, TreeNode>>();
  for (const node of nodes) {
    // A persistent node is left out of every look, as the queue leaves it out once it saw it
    // (`isSessionOwned`): counted as ahead, it could make a holder look like a waiter.
    if (node.owner === '0') continue;
    const slash = node.path.lastIndexOf('/');
    const dir = node.path.slice(0, slash);
    if (!queueOf(root, dir)) continue;
    let children = dirs.get(dir);
    if (!children) dirs.set(dir, (children = new Map()));
    children.set(node.path.slice(slash + 1), node);
  }
  const waiting: TreeNode[] = [];
  for (const [dir, children] of dirs) {
    const queue = sortQueue([...children.keys()], queueOf(root, dir)!);
    queue.forEach((node, index) => {
      // A writer's and a participant's driver have no `placeOf`, as the lock's: the head holds (`placeIn`).
      const driver = node.marker === 'read' ? READ_DRIVER : LOCK_DRIVER;
      if (!placeIn(driver, queue, index).holds) waiting.push(children.get(node.name)!);
    });
  }
  return waiting;
}
