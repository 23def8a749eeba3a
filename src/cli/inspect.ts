import { CorruptStateError } from '../errors/corrupt-state.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { queueNodeToken } from '../recipes/fencing.js';
import { validateLockName } from '../recipes/lock-name.js';
import { LOCK_DRIVER } from '../recipes/queue/queue-driver.js';
import { sortQueue, type QueueMarker } from '../recipes/queue/queue-node.js';
import { isReleaseRequested } from '../recipes/queue/release-request.js';
import { ReadyState } from '../recipes/ready/ready-state.js';
import { znodePaths } from '../recipes/znode-paths.js';
import { childrenOrNone } from '../zookeeper/children-or-none.js';
import type { ZkClient } from '../zookeeper/requests.js';
import { readReadWriteLock, readSemaphore, splitHolders, type InspectedReadWriteLock, type InspectedSemaphore } from './inspect-shared.js';
import type { InspectedNode, InspectedReady } from './inspected-node.js';
import { listPartitionSets, readPartitionSet, type InspectedPartitionSet } from './inspect-partitions.js';

export type { InspectedNode, InspectedReady } from './inspected-node.js';
export type { InspectedPartition, InspectedPartitionMember, InspectedPartitionSet } from './inspect-partitions.js';

/** Version of the `Inspection` shape; bumped only on a breaking change (2: a semaphore's `holders` and `waiters`). */
export const INSPECTION_VERSION = 2;

export interface InspectedLock {
  readonly name: string;
  readonly path: string;
  /** First in line, or null when nobody holds the lock. */
  readonly holder: InspectedNode | null;
  /** The rest of the queue, in the order they will be granted the lock. */
  readonly waiters: InspectedNode[];
  /** null: no ready znode (no guarded section of the lock runs or was left interrupted: a completed one deletes it). */
  readonly ready: InspectedReady | null;
}

export interface InspectedElection {
  readonly name: string;
  readonly path: string;
  /** First in line, or null when nobody takes part. */
  readonly leader: InspectedNode | null;
  /** The rest of the queue, in succession order. */
  readonly followers: InspectedNode[];
  readonly ready: InspectedReady | null;
}

/** Everything under a root, as `nestjs-zk-lock inspect --json` prints it. */
export interface Inspection {
  readonly version: typeof INSPECTION_VERSION;
  readonly root: string;
  /** When the reading started, ISO 8601. */
  readonly at: string;
  /** Sorted by name. */
  readonly locks: InspectedLock[];
  /** Sorted by name. */
  readonly elections: InspectedElection[];
  /** Read/write locks, sorted by name. */
  readonly readWriteLocks: InspectedReadWriteLock[];
  /** Sorted by name. */
  readonly semaphores: InspectedSemaphore[];
  /** Partition sets (`PartitionSet`), sorted by name. */
  readonly partitionSets: InspectedPartitionSet[];
}

/** What `inspect` may leave out. */
export interface InspectOptions {
  /** `false`: no partition set is read (the dashboard, which does not show them, reads one name at a time). */
  readonly partitionSets?: boolean;
}

/**
 * Queue nodes read before, by path, for a caller that inspects again and again (the dashboard):
 * a node's data and creation never change, so only the first node of each lock and election
 * queue (whose release mark may have) is read again. `inspect` adds what it reads; the caller
 * bounds the map.
 */
export type KnownNodes = Map<string, InspectedNode>;

/**
 * Reads every lock, election, read/write lock, semaphore and partition set under `root` (or only
 * those called `name`) without changing anything: it creates no node and sets no watch. Costs 5
 * listings, then per lock, election, read/write lock or semaphore one listing and one read per
 * queue node (plus one for a lock's or election's ready znode), and per partition set what
 * `readPartitionSet` says, all sent at once.
 *
 * A reading is not atomic: nodes that leave while it runs are left out, so it shows a state the
 * queue went through or close to it, never a node that was not there.
 */
export async function inspect(client: ZkClient, root: string, name?: string, known?: KnownNodes, options: InspectOptions = {}): Promise<Inspection> {
  const at = new Date();
  if (name !== undefined) validateLockName(name);
  const lockNames = name === undefined ? await childrenOrNone(client, `${root}/locks`) : [name];
  const electionNames = name === undefined ? await childrenOrNone(client, `${root}/elections`) : [name];
  const readWriteNames = name === undefined ? await childrenOrNone(client, `${root}/rwlocks`) : [name];
  const semaphoreNames = name === undefined ? await childrenOrNone(client, `${root}/semaphores`) : [name];
  const partitionSetNames = options.partitionSets === false ? [] : name === undefined ? await listPartitionSets(client, root) : [name];
  const readNodeAt = (path: string, node: string, sequence: number) => readNode(client, path, node, sequence, at.getTime(), known);
  const readQueueAt = (dir: string, marker: QueueMarker) => readQueue(client, dir, marker, at.getTime(), known);
  const [locks, elections, readWriteLocks, semaphores, partitionSets] = await Promise.all([
    Promise.all(lockNames.map((lock) => readQueue(client, znodePaths.lockDir(root, lock), 'lock', at.getTime(), known))),
    Promise.all(electionNames.map((election) => readQueue(client, znodePaths.electionDir(root, election), 'n', at.getTime(), known))),
    Promise.all(readWriteNames.map((lock) => readReadWriteLock(client, root, lock, readNodeAt))),
    Promise.all(semaphoreNames.map((semaphore) => readSemaphore(client, root, semaphore, readNodeAt))),
    Promise.all(partitionSetNames.map((set) => readPartitionSet(client, root, set, readQueueAt))),
  ]);
  return {
    version: INSPECTION_VERSION,
    root,
    at: at.toISOString(),
    locks: present(lockNames, locks).map(({ name: lock, queue }) => ({
      name: lock,
      path: queue.path,
      holder: queue.holders[0] ?? null,
      waiters: queue.waiters,
      ready: queue.ready,
    })),
    elections: present(electionNames, elections).map(({ name: election, queue }) => ({
      name: election,
      path: queue.path,
      leader: queue.holders[0] ?? null,
      followers: queue.waiters,
      ready: queue.ready,
    })),
    readWriteLocks: sortedByName(readWriteLocks),
    semaphores: sortedByName(semaphores),
    partitionSets: sortedByName(partitionSets),
  };
}

/** Partition set `name` under `root`, as `inspect` reads it (for the dashboard, which reads one set at a time); undefined when it is gone. */
export function inspectPartitionSet(client: ZkClient, root: string, name: string, known?: KnownNodes): Promise<InspectedPartitionSet | undefined> {
  const now = Date.now();
  return readPartitionSet(client, root, name, (dir, marker) => readQueue(client, dir, marker, now, known));
}

function sortedByName<T extends { readonly name: string }>(readings: readonly (T | undefined)[]): T[] {
  return readings.filter((reading): reading is T => reading !== undefined).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

interface QueueReading {
  readonly path: string;
  /** By the exclusive rule: the first node that a session owns (at most one). */
  readonly holders: InspectedNode[];
  readonly waiters: InspectedNode[];
  readonly ready: InspectedReady | null;
}

/** Pairs names with their readings, drops directories that did not exist, sorts by name. */
function present(names: readonly string[], readings: readonly (QueueReading | undefined)[]) {
  return names
    .map((name, i) => ({ name, queue: readings[i] }))
    .filter((entry): entry is { name: string; queue: QueueReading } => entry.queue !== undefined)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** One queue in grant order, or undefined when its directory is gone (a container the server removed). */
async function readQueue(client: ZkClient, dir: string, marker: QueueMarker, now: number, known: KnownNodes | undefined): Promise<QueueReading | undefined> {
  let children: string[];
  try {
    ({ children } = await client.getChildren(dir));
  } catch (error) {
    if (ZooKeeperError.is(error, 'NONODE')) return undefined;
    throw error;
  }
  // Sorted by sequence, not by name: the uuid prefix breaks lexical order.
  const queue = sortQueue(children, marker);
  const [nodes, ready] = await Promise.all([
    // The head afresh: a release request marks it (a setData) after it was first read.
    Promise.all(queue.map(async (queued, index) => ({ queued, read: await readNode(client, `${dir}/${queued.name}`, queued.name, queued.sequence, now, index === 0 ? undefined : known) }))),
    children.includes('ready') ? readReady(client, dir) : Promise.resolve(null),
  ]);
  return { path: dir, ...splitHolders(nodes, () => LOCK_DRIVER), ready };
}

async function readNode(client: ZkClient, path: string, name: string, sequence: number, now: number, known?: KnownNodes): Promise<InspectedNode | undefined> {
  const before = known?.get(path);
  if (before) return { ...before, ageMs: Math.max(0, now - Date.parse(before.createdAt)) };
  try {
    const { data, stat } = await client.getData(path);
    const node: InspectedNode = {
      node: name,
      sequence,
      identity: data.length > 0 ? data.toString('utf8') : null,
      sessionId: stat.ephemeralOwner,
      createdAt: new Date(stat.ctime).toISOString(),
      ageMs: Math.max(0, now - stat.ctime),
      zxid: queueNodeToken(stat.czxid).toString(),
      releaseRequested: isReleaseRequested(stat),
    };
    known?.set(path, node);
    return node;
  } catch (error) {
    // Released (or its session ended) between the listing and this read: no longer in the queue.
    if (ZooKeeperError.is(error, 'NONODE')) return undefined;
    throw error;
  }
}

async function readReady(client: ZkClient, dir: string): Promise<InspectedReady | null> {
  try {
    const current = await new ReadyState(client, dir).read();
    if (!current) return null;
    const { state, token, holder, since, checkpoint } = current.record;
    const ready = { state, token, holder, since: new Date(since).toISOString() };
    return 'checkpoint' in current.record ? { ...ready, checkpoint } : ready;
  } catch (error) {
    // Someone wrote something else into the ready znode: show it rather than fail the whole reading.
    if (error instanceof CorruptStateError) return { state: 'corrupt', problem: error.problem };
    throw error;
  }
}
