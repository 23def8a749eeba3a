import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { sortQueue } from '../recipes/queue/queue-node.js';
import { parseLeaseNode } from '../recipes/semaphore/permit-pool.js';
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

/** A semaphore holder's lease node. */
export interface InspectedLease {
  /** `_c_<uuid>-<take>of<permits>`. */
  readonly node: string;
  /** The permits it holds (or, the head of the turnstile, is about to hold or waits for). */
  readonly take: number;
  readonly identity: string | null;
  readonly sessionId: string;
  readonly createdAt: string;
  readonly ageMs: number;
  /** The node's czxid, decimal (creation order). */
  readonly zxid: string;
  /**
   * The turnstile's head, waiting for permits: its node is there, but the permits would exceed the
   * capacity with it (the newest node, of the head's session, over the capacity).
   */
  readonly pending: boolean;
}

export interface InspectedSemaphore {
  readonly name: string;
  readonly path: string;
  /** The capacity the lease nodes were granted under; null when nobody holds. */
  readonly permits: number | null;
  /** The permits held: of every lease node but a pending one. */
  readonly taken: number;
  readonly leases: InspectedLease[];
  /** The turnstile, in arrival order: its head takes permits next. */
  readonly queue: InspectedNode[];
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
export async function readSemaphore(client: ZkClient, root: string, name: string, readNode: NodeReader, now: number): Promise<InspectedSemaphore | undefined> {
  const path = znodePaths.semaphoreDir(root, name);
  const leasesPath = znodePaths.semaphoreLeases(path);
  const [children, leaseNames] = await Promise.all([childrenOf(client, path), childrenOf(client, leasesPath)]);
  if (!children) return undefined;
  const [queue, leases] = await Promise.all([
    Promise.all(sortQueue(children, ['lock']).map((node) => readNode(`${path}/${node.name}`, node.name, node.sequence))),
    Promise.all((leaseNames ?? []).map((lease) => readLease(client, leasesPath, lease, now))),
  ]);
  const nodes = leases.filter((lease): lease is InspectedLease => lease !== undefined).sort((a, b) => Number(BigInt(a.zxid) - BigInt(b.zxid)));
  const permits = (leaseNames ?? []).map(parseLeaseNode).find((lease) => lease !== undefined)?.permits ?? null;
  const turnstile = queue.filter((node): node is InspectedNode => node !== undefined);
  const total = nodes.reduce((sum, lease) => sum + lease.take, 0);
  const newest = nodes.at(-1);
  const pending = permits !== null && total > permits && newest !== undefined && newest.sessionId === turnstile[0]?.sessionId ? newest : undefined;
  const marked = nodes.map((lease) => (lease === pending ? { ...lease, pending: true } : lease));
  return { name, path, permits, taken: total - (pending?.take ?? 0), leases: marked, queue: turnstile };
}

async function readLease(client: ZkClient, dir: string, name: string, now: number): Promise<InspectedLease | undefined> {
  const lease = parseLeaseNode(name);
  if (!lease) return undefined;
  try {
    const { data, stat } = await client.getData(`${dir}/${name}`);
    return {
      node: name,
      take: lease.take,
      identity: data.length > 0 ? data.toString('utf8') : null,
      sessionId: stat.ephemeralOwner,
      createdAt: new Date(stat.ctime).toISOString(),
      ageMs: Math.max(0, now - stat.ctime),
      zxid: stat.czxid.toString(),
      pending: false,
    };
  } catch (error) {
    if (ZooKeeperError.is(error, 'NONODE')) return undefined; // released meanwhile
    throw error;
  }
}
