import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { childrenOrNone } from '../../zookeeper/children-or-none.js';
import type { ZkClient } from '../../zookeeper/requests.js';
import { isSessionOwned, sortQueue } from '../queue/queue-node.js';
import { encodeMember, parseMember } from './partition-records.js';

/** The owner of the partition was asked: its member node now lists the partition as declined. */
export interface OwnerAsked {
  readonly requested: true;
  readonly partition: number;
  /** The owner's member node name (`m-<uuid>`). */
  readonly member: string;
  /** The owner's `identity`. */
  readonly identity: string;
  /** Hex id of the owner's session. */
  readonly sessionId: string;
  /** The partition was declined already: asked before, the move may be under way. */
  readonly repeated: boolean;
}

/**
 * Nobody was asked. `not-owned`: nobody holds the partition's lock (it is moving, or the set is
 * empty). `owner-leaving`: its holder has no member node any more (it is leaving the set, and its
 * partitions move anyway). `owner-kept-changing`: the owner's record changed under every try.
 */
export interface NobodyAskedToHandOver {
  readonly requested: false;
  readonly partition: number;
  readonly reason: 'not-owned' | 'owner-leaving' | 'owner-kept-changing';
}

export type HandOverRequest = OwnerAsked | NobodyAskedToHandOver;

/** Tries of the owner's record before giving up on a member that keeps rewriting it. */
const MAX_WRITES = 5;

/**
 * Asks the replica that owns `partition` of the set in `setDir` to hand it over, from anywhere (an
 * operator's CLI): the partition goes into the `declined` list of the owner's member node, the same
 * field `PartitionSet.handOver` writes, which the assigner watches. The assigner moves the
 * partition to another member, and the owner lets go once its running work ends, as for any move.
 * The owner follows its member node, takes the request in as its own, and takes it out once the
 * partition went elsewhere (so that it can be assigned back later); a new session of that replica
 * starts without it.
 *
 * The owner is found by session: the member node whose ephemeral owner is the session holding the
 * partition's lock. The write is a compare-and-set on the member node's version, so that a
 * concurrent `handOver` of the replica itself is kept (see `Membership`, which merges likewise).
 */
export async function requestHandOver(client: ZkClient, setDir: string, partition: number): Promise<HandOverRequest> {
  const owner = await ownerSession(client, `${setDir}/locks/${partition}`);
  if (owner === undefined) return { requested: false, partition, reason: 'not-owned' };
  const members = await childrenOrNone(client, `${setDir}/members`);
  for (const name of members) {
    const path = `${setDir}/members/${name}`;
    for (let writes = 0; writes < MAX_WRITES; writes++) {
      let data: Buffer;
      let version: number;
      try {
        const read = await client.getData(path);
        if (read.stat.ephemeralOwner !== owner) break; // another replica's member node
        ({ data } = read);
        version = read.stat.version;
      } catch (error) {
        if (ZooKeeperError.is(error, 'NONODE')) break; // left meanwhile
        throw error;
      }
      const member = parseMember(path, name, data);
      const asked = { requested: true as const, partition, member: name, identity: member.identity, sessionId: owner };
      if (member.declined?.includes(partition)) return { ...asked, repeated: true };
      try {
        const declined = [...(member.declined ?? []), partition];
        await client.setData(path, encodeMember({ v: 1, identity: member.identity, capacity: member.capacity, declined }), version);
        return { ...asked, repeated: false };
      } catch (error) {
        if (ZooKeeperError.is(error, 'NONODE')) return { requested: false, partition, reason: 'owner-leaving' };
        if (!ZooKeeperError.is(error, 'BADVERSION')) throw error;
        if (writes === MAX_WRITES - 1) return { requested: false, partition, reason: 'owner-kept-changing' };
      }
    }
  }
  return { requested: false, partition, reason: 'owner-leaving' };
}

/** The session holding the lock in `dir` (its first session-owned queue node), or undefined when nobody does. */
async function ownerSession(client: ZkClient, dir: string): Promise<string | undefined> {
  for (const { name } of sortQueue(await childrenOrNone(client, dir), 'lock')) {
    try {
      const { stat } = await client.getData(`${dir}/${name}`);
      if (isSessionOwned(stat.ephemeralOwner)) return stat.ephemeralOwner;
    } catch (error) {
      if (!ZooKeeperError.is(error, 'NONODE')) throw error; // released meanwhile: the next may hold
    }
  }
  return undefined;
}
