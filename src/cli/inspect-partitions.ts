import { CorruptStateError } from '../errors/corrupt-state.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { parseAssignment, parseMember } from '../recipes/partition/partition-records.js';
import { znodePaths } from '../recipes/znode-paths.js';
import { childrenOrNone } from '../zookeeper/children-or-none.js';
import type { ZkClient } from '../zookeeper/requests.js';
import type { InspectedNode, InspectedReady } from './inspected-node.js';

// What `inspect` reads of a partition set (`PartitionSet`): its members, its stored assignment,
// the assigner's election, and each partition's lock, whose holder is the partition's owner.

/** A queue as `inspect` reads a lock's: the holder first; undefined when its directory is gone. */
export type QueueReader = (dir: string, marker: 'lock' | 'n') => Promise<{ readonly holders: InspectedNode[]; readonly waiters: InspectedNode[]; readonly ready: InspectedReady | null } | undefined>;

export interface InspectedPartitionMember {
  /** Its member node's name (`m-<uuid>`): what the assignment names it by. */
  readonly member: string;
  readonly identity: string;
  readonly capacity: number;
  /** Partitions it asked to give up (`handOver`, `nestjs-zk-lock hand-over`). */
  readonly declined: readonly number[];
  /** Hex id of its session (the member node is ephemeral). */
  readonly sessionId: string;
  /** Partitions the stored assignment gives it. */
  readonly assigned: number[];
  /** Partitions whose lock its session holds: what it owns now. */
  readonly owned: number[];
}

export interface InspectedPartition {
  readonly partition: number;
  /** Member node name the stored assignment gives it to; null: nobody (or no assignment yet). */
  readonly assignedTo: string | null;
  /** The holder of its lock, i.e. its owner; null when nobody owns it (moving, or unassigned). */
  readonly owner: InspectedNode | null;
  /** Queued for its lock, in grant order (the member it moves to waits here until the owner lets go). */
  readonly waiters: InspectedNode[];
  /** Its ready znode: dirty while work on it runs, or when a dead owner left it half-done; null: none. */
  readonly ready: InspectedReady | null;
}

export interface InspectedPartitionSet {
  readonly name: string;
  readonly path: string;
  /** The count of the stored assignment; null before the first one was written. */
  readonly count: number | null;
  /** The replica that writes the assignment (the head of the set's assigner election); null: none. */
  readonly assigner: InspectedNode | null;
  readonly members: InspectedPartitionMember[];
  /** Every partition of the assignment, and any other that has a lock directory. */
  readonly partitions: InspectedPartition[];
  /** A member or assignment record that is not what the recipe writes, named; absent when all parse. */
  readonly problems?: string[];
}

/** Reads `path` as `parse` does, or undefined when it is gone; a record it cannot parse goes to `problems`. */
async function readRecord<T>(client: ZkClient, path: string, problems: string[], parse: (data: Buffer) => T): Promise<{ value: T; ephemeralOwner: string } | undefined> {
  try {
    const { data, stat } = await client.getData(path);
    return { value: parse(data), ephemeralOwner: stat.ephemeralOwner };
  } catch (error) {
    if (ZooKeeperError.is(error, 'NONODE')) return undefined;
    if (error instanceof CorruptStateError) {
      problems.push(`${path}: ${error.problem}`);
      return undefined;
    }
    throw error;
  }
}

/** The names of the partition sets under `root`. */
export function listPartitionSets(client: ZkClient, root: string): Promise<string[]> {
  return childrenOrNone(client, `${root}/partitions`);
}

/**
 * Partition set `name` under `root`, or undefined when its directory does not exist. Costs three
 * listings and one read per member, one read of the assignment, and a lock's reading per partition
 * that has a lock directory, all sent at once.
 */
export async function readPartitionSet(client: ZkClient, root: string, name: string, readQueue: QueueReader): Promise<InspectedPartitionSet | undefined> {
  const path = znodePaths.partitionSetDir(root, name);
  const problems: string[] = [];
  const [top, memberNames, lockNames] = await Promise.all([childrenOrNone(client, path), childrenOrNone(client, `${path}/members`), childrenOrNone(client, `${path}/locks`)]);
  if (top.length === 0 && memberNames.length === 0) return undefined;
  const [members, assignment, election, locks] = await Promise.all([
    Promise.all(memberNames.map((member) => readRecord(client, `${path}/members/${member}`, problems, (data) => parseMember(`${path}/members/${member}`, member, data)))),
    readRecord(client, `${path}/assignment`, problems, (data) => parseAssignment(`${path}/assignment`, data)),
    readQueue(`${path}/elections/assigner`, 'n'),
    Promise.all(lockNames.filter((lock) => /^\d+$/.test(lock)).map(async (lock) => ({ partition: Number(lock), queue: await readQueue(`${path}/locks/${lock}`, 'lock') }))),
  ]);
  const owners = assignment?.value.owners ?? [];
  const byPartition = new Map(locks.map(({ partition, queue }) => [partition, queue]));
  const numbers = [...new Set([...owners.keys(), ...byPartition.keys()])].sort((a, b) => a - b);
  const partitions: InspectedPartition[] = numbers.map((partition) => {
    const queue = byPartition.get(partition);
    return { partition, assignedTo: owners[partition] ?? null, owner: queue?.holders[0] ?? null, waiters: queue?.waiters ?? [], ready: queue?.ready ?? null };
  });
  const live = members.filter((member) => member !== undefined);
  return {
    name,
    path,
    count: assignment?.value.count ?? null,
    assigner: election?.holders[0] ?? null,
    members: live
      .map(({ value, ephemeralOwner }) => ({
        member: value.id,
        identity: value.identity,
        capacity: value.capacity,
        declined: value.declined ?? [],
        sessionId: ephemeralOwner,
        assigned: partitions.filter((p) => p.assignedTo === value.id).map((p) => p.partition),
        // A member owns what its session holds: the lock nodes and the member node share it.
        owned: partitions.filter((p) => p.owner?.sessionId === ephemeralOwner).map((p) => p.partition),
      }))
      .sort((a, b) => (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : a.member < b.member ? -1 : 1)),
    partitions,
    ...(problems.length > 0 && { problems }),
  };
}
