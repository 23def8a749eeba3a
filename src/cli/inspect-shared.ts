import { SemaphorePermitsMismatchError } from '../errors/semaphore-permits-mismatch.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { LOCK_DRIVER, placeIn, type QueueDriver } from '../recipes/queue/queue-driver.js';
import { isSessionOwned, sortQueue, type QueueNode } from '../recipes/queue/queue-node.js';
import { READ_DRIVER } from '../recipes/read-write/read-write-drivers.js';
import { PermitDriver, permitsOf } from '../recipes/semaphore/permit-driver.js';
import { znodePaths } from '../recipes/znode-paths.js';
import type { ZkClient } from '../zookeeper/requests.js';
import type { InspectedNode } from './inspected-node.js';

// What `inspect` reads of the locks that several may hold at once (read/write locks and
// semaphores), and who holds a queue, by the recipes' own rule.

/** A queue node as listed, and as read (undefined: it left between the listing and the read). */
export interface ReadQueueNode<N extends InspectedNode> {
  readonly queued: QueueNode;
  readonly read: N | undefined;
}

/**
 * Who holds a queue read in grant order, by the recipe's own rule (`placeIn` with the driver each
 * node queued with), as the queue itself decides it: persistent look-alikes hold nothing and are
 * left out of the rule (`isSessionOwned`; they are listed with the waiters), and a semaphore node
 * queued under another capacity than one ahead of it never holds (its caller was refused).
 */
export function splitHolders<N extends InspectedNode>(nodes: readonly ReadQueueNode<N>[], driverOf: (node: QueueNode) => Pick<QueueDriver, 'placeOf'>): { holders: N[]; waiters: N[] } {
  const present = nodes.filter((node): node is { queued: QueueNode; read: N } => node.read !== undefined);
  const live = present.filter((node) => isSessionOwned(node.read.sessionId));
  const queue = live.map((node) => node.queued);
  const holding = new Set(live.filter((node, index) => holdsAt(driverOf(node.queued), queue, index)).map((node) => node.read));
  return { holders: present.filter((node) => holding.has(node.read)).map((node) => node.read), waiters: present.filter((node) => !holding.has(node.read)).map((node) => node.read) };
}

function holdsAt(driver: Pick<QueueDriver, 'placeOf'>, queue: readonly QueueNode[], index: number): boolean {
  try {
    return placeIn(driver, queue, index).holds;
  } catch (error) {
    if (error instanceof SemaphorePermitsMismatchError) return false;
    throw error;
  }
}

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
  const read = await Promise.all(queue.map(async (queued) => {
    const inspected = await readNode(`${path}/${queued.name}`, queued.name, queued.sequence);
    return { queued, read: inspected && { ...inspected, mode: queued.marker as 'read' | 'write' } };
  }));
  return { name, path, ...splitHolders(read, (node) => (node.marker === 'read' ? READ_DRIVER : LOCK_DRIVER)) };
}

/** The semaphore `name` under `root`, or undefined when its directory is gone. */
export async function readSemaphore(client: ZkClient, root: string, name: string, readNode: NodeReader): Promise<InspectedSemaphore | undefined> {
  const path = znodePaths.semaphoreDir(root, name);
  const children = await childrenOf(client, path);
  if (!children) return undefined;
  const read = await Promise.all(sortQueue(children, 'permits').map(async (queued) => {
    const inspected = await readNode(`${path}/${queued.name}`, queued.name, queued.sequence);
    // Nobody asks a semaphore's holders to let go; a mark on its node is a grant (`node-mark.ts`).
    return { queued, read: inspected && { ...inspected, take: permitsOf(queued.name)!.take, releaseRequested: false } };
  }));
  const { holders, waiters } = splitHolders(read, (node) => new PermitDriver(path, permitsOf(node.name)!));
  const head = holders[0] ?? waiters.find((node) => isSessionOwned(node.sessionId));
  const permits = head ? permitsOf(head.node)!.permits : null;
  return { name, path, permits, taken: holders.reduce((sum, node) => sum + node.take, 0), holders, waiters };
}
