import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { sortQueue } from '../recipes/queue/queue-node.js';
import { permitsOf } from '../recipes/semaphore/permit-driver.js';
import { znodePaths } from '../recipes/znode-paths.js';
import type { ZkClient } from '../zookeeper/requests.js';
import type { InspectedNode } from './inspected-node.js';

// What `inspect` reads of the locks that several may hold at once: read/write locks and semaphores.

/** A node of a read/write lock's queue: a reader's or a writer's. */
export interface InspectedReadWriteNode extends InspectedNode {
  readonly mode: 'read' | 'write';
}

export interface InspectedReadWriteLock {
  readonly name: string;
  readonly path: string;
  /** Who holds it now: one writer, or the readers with no writer queued ahead of them; [] when free. */
  readonly holders: InspectedReadWriteNode[];
  /** The rest of the queue, in arrival order. */
  readonly waiters: InspectedReadWriteNode[];
}

/** A node of a semaphore's queue: a holder's or a waiter's, with the permits it takes. */
export interface InspectedPermitNode extends InspectedNode {
  readonly take: number;
}

export interface InspectedSemaphore {
  readonly name: string;
  readonly path: string;
  /** The capacity its queued callers gave (each node's name records it); null when nobody queues. */
  readonly permits: number | null;
  /** The permits held, by the holders together. */
  readonly taken: number;
  /** Who holds permits now: the queue's longest prefix whose permits fit the capacity. */
  readonly holders: InspectedPermitNode[];
  /** The rest of the queue, in arrival order: the first takes permits next. */
  readonly waiters: InspectedPermitNode[];
}

/** Reads a node's data and stat, or undefined once it is gone. */
export type NodeReader = (path: string, name: string, sequence: number) => Promise<InspectedNode | undefined>;

/** Children of `path`, or undefined when it does not exist. */
async function childrenOf(client: ZkClient, path: string): Promise<string[] | undefined> {
  try {
    return (await client.getChildren(path)).children;
  } catch (error) {
    if (ZooKeeperError.is(error, 'NONODE')) return undefined;
    throw error;
  }
}

/** The read/write lock `name` under `root`, or undefined when its directory is gone. */
export async function readReadWriteLock(client: ZkClient, root: string, name: string, readNode: NodeReader): Promise<InspectedReadWriteLock | undefined> {
  const path = znodePaths.readWriteLockDir(root, name);
  const children = await childrenOf(client, path);
  if (!children) return undefined;
  const queue = sortQueue(children, ['read', 'write']);
  const read = await Promise.all(queue.map(async (node) => {
    const inspected = await readNode(`${path}/${node.name}`, node.name, node.sequence);
    return inspected && { ...inspected, mode: node.marker as 'read' | 'write' };
  }));
  const present = read.filter((node): node is InspectedReadWriteNode => node !== undefined);
  // Who holds, by the recipe's rule (`READ_DRIVER`): the head, and every reader ahead of the first writer.
  const firstWriter = present.findIndex((node) => node.mode === 'write');
  const holds = (node: InspectedReadWriteNode, index: number) => index === 0 || (node.mode === 'read' && (firstWriter < 0 || index < firstWriter));
  return { name, path, holders: present.filter(holds), waiters: present.filter((node, i) => !holds(node, i)) };
}

/** The semaphore `name` under `root`, or undefined when its directory is gone. */
export async function readSemaphore(client: ZkClient, root: string, name: string, readNode: NodeReader): Promise<InspectedSemaphore | undefined> {
  const path = znodePaths.semaphoreDir(root, name);
  const children = await childrenOf(client, path);
  if (!children) return undefined;
  const read = await Promise.all(sortQueue(children, 'permits').map(async (node) => {
    const inspected = await readNode(`${path}/${node.name}`, node.name, node.sequence);
    // Nobody asks a semaphore's holders to let go; a version above 0 is a grant's mark (`PermitPool`).
    return inspected && { ...inspected, take: permitsOf(node.name)!.take, releaseRequested: false };
  }));
  const present = read.filter((node): node is InspectedPermitNode => node !== undefined);
  const permits = present.length > 0 ? permitsOf(present[0]!.node)!.permits : null;
  // Who holds, by the recipe's rule (`PermitDriver`): every node up to the first whose permits,
  // with all those ahead of it, exceed the capacity.
  let taken = 0;
  let held = 0;
  for (const node of present) {
    if (permits === null || taken + node.take > permits) break;
    taken += node.take;
    held += 1;
  }
  return { name, path, permits, taken, holders: present.slice(0, held), waiters: present.slice(held) };
}
