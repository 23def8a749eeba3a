/** Helpers of the partition tests: replicas (a `PartitionSet` on its own session) and ownership views. */
import { PartitionSet, type PartitionSetOptions } from '../../src/recipes/partition/partition-set.js';
import type { ZkClient } from '../../src/zookeeper/requests.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { openSession, queueNodes, sharedConnect } from '../lock/lock-test-kit.js';
import { waitFor } from '../support/wait.js';

export interface Replica {
  readonly name: string;
  readonly session: ZkSession;
  readonly set: PartitionSet;
}

const quiet = { warn() {}, error() {} };

export async function startReplica(root: string, name: string, options: Partial<PartitionSetOptions> = {}): Promise<Replica> {
  const session = await openSession(sharedConnect());
  const set = new PartitionSet(session, { root, name: 'outbox', count: 64, identity: name, logger: quiet, ...options });
  set.start();
  return { name, session, set };
}

export async function stopReplica(replica: Replica): Promise<void> {
  await replica.set.close();
  replica.session.close();
}

/** Owner (replica name) of each partition as the replicas themselves report it; throws if two claim one. */
export function ownersOf(replicas: readonly Replica[], count = 64): (string | null)[] {
  const owners: (string | null)[] = new Array<string | null>(count).fill(null);
  for (const replica of replicas) {
    for (const k of replica.set.ownedNow) {
      if (owners[k] !== null) throw new Error(`partition ${k} owned by both ${owners[k]} and ${replica.name}`);
      owners[k] = replica.name;
    }
  }
  return owners;
}

/** Waits until every partition is owned and each replica owns ⌊N/M⌋ or ⌈N/M⌉; returns the owners. */
export function balanced(replicas: readonly Replica[], count = 64, timeoutMs = 20_000): Promise<(string | null)[]> {
  return waitFor(
    () => {
      const owners = ownersOf(replicas, count);
      if (owners.includes(null)) return undefined;
      const low = Math.floor(count / replicas.length);
      const ok = replicas.every((replica) => {
        const n = owners.filter((owner) => owner === replica.name).length;
        return n === low || n === Math.ceil(count / replicas.length);
      });
      return ok ? owners : undefined;
    },
    { timeoutMs, intervalMs: 50, message: `${count} partitions owned and balanced over ${replicas.map((r) => r.name).join(', ')}` },
  );
}

/**
 * ZooKeeper's view of a set's partitions: per partition, the identity written on the first node of
 * its lock's queue (its owner, or the one taking over; null: nobody queues) and how many more wait.
 */
export async function lockHolders(client: ZkClient, setPath: string, partitions: readonly number[]): Promise<{ holder: string | null; waiting: number }[]> {
  return Promise.all(partitions.map(async (k) => {
    const dir = `${setPath}/locks/${k}`;
    const [first, ...waiting] = await queueNodes(client, dir);
    if (first === undefined) return { holder: null, waiting: 0 };
    return { holder: (await client.getData(`${dir}/${first}`)).data.toString(), waiting: waiting.length };
  }));
}
