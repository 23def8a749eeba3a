import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import type { ZkClient } from '../../zookeeper/requests.js';
import type { ZkStat } from '../../zookeeper/types.js';
import { isMarked, markNode } from './node-mark.js';
import { isSessionOwned, sortQueue, type QueueMarker } from './queue-node.js';

/**
 * Cooperative revocation (Curator's `Revocable`, without its extra znode): a request that the
 * holder of a queue's head (a lock's holder, an election's leader) let go. The request is a mark
 * on the holder's own queue node (`node-mark.ts`: the node's data, the holder's identity, written
 * back unchanged), which in these queues means "release requested" and nothing else. The holder
 * sees it through a watch on its own node that it sets only if it
 * asks (`Lease.releaseRequested`) or, as an election's leader, already keeps; nobody releases on
 * the holder's behalf, and a holder that never looks pays nothing.
 *
 * Why on the node itself: a persistent marker znode would outlive its holder (a leak, and a stale
 * request for the next holder), an ephemeral one would vanish with the session of whoever made it
 * (a CLI run) before the holder saw it. The mark dies with the holder's node, and reaches exactly
 * that holder: a node that heads the queue stays at the head until it is deleted (sequence numbers
 * only grow), so marking the head never marks a waiter.
 *
 * What it costs the others: a waiter right behind the holder watches its node (predecessor wait)
 * and is woken by the change; it lists the queue again, finds the holder still there and watches
 * it again (two requests). It is not granted: only a deletion lets it in.
 */

/** The holder that was asked: its queue node now carries the request. */
export interface HolderAsked {
  readonly requested: true;
  /** The lock's (or election's) directory znode. */
  readonly dir: string;
  /** The holder's queue node, now marked. */
  readonly node: string;
  /** The node's data: the holder's `identity` option (`<hostname>:<pid>` by default); null if empty. */
  readonly identity: string | null;
  /** Hex id of the session that owns the node: the holder's. */
  readonly sessionId: string;
  /** The node was marked already: someone had asked before (the holder may be on its way out). */
  readonly repeated: boolean;
}

/**
 * Nobody was asked. `free`: the queue was empty. `holders-kept-leaving`: every holder found left
 * before the mark landed, look after look (a lock released and taken again quickly): the release
 * happened anyway, just ask again if it is still wanted.
 */
export interface NobodyAsked {
  readonly requested: false;
  readonly dir: string;
  readonly reason: 'free' | 'holders-kept-leaving';
}

export type ReleaseRequest = HolderAsked | NobodyAsked;

/** Listings before giving up on a queue whose holders keep leaving before the mark lands. */
const MAX_LISTINGS = 5;

/** In a lock's or an election's queue, a node's stat says that its holder was asked to let go (a mark, see `node-mark.ts`). */
export function isReleaseRequested(stat: Pick<ZkStat, 'version'>): boolean {
  return isMarked(stat);
}

/**
 * Marks the node at the head of the queue in `dir` (nodes of `markers`). One listing, then the
 * head's data (to keep it, and to name whom we asked) and the mark: 3 requests. A head that left
 * meanwhile (NONODE) is passed for the next node of the same listing, which heads the queue once
 * every node before it is gone; after the listing, the queue is listed again, up to `MAX_LISTINGS`.
 */
export async function requestRelease(client: ZkClient, dir: string, markers: QueueMarker | readonly QueueMarker[]): Promise<ReleaseRequest> {
  for (let listings = 0; listings < MAX_LISTINGS; listings++) {
    let children: string[];
    try {
      ({ children } = await client.getChildren(dir));
    } catch (error) {
      if (ZooKeeperError.is(error, 'NONODE')) return { requested: false, dir, reason: 'free' }; // never used, or a container removed once empty
      throw error;
    }
    const queue = sortQueue(children, markers);
    if (queue.length === 0) return { requested: false, dir, reason: 'free' };
    for (const { name } of queue) {
      const asked = await mark(client, dir, `${dir}/${name}`);
      if (asked) return asked;
    }
  }
  return { requested: false, dir, reason: 'holders-kept-leaving' };
}

/** Marks `node` if it is there and held by a session; undefined when it is gone or a persistent look-alike (see `isSessionOwned`). */
async function mark(client: ZkClient, dir: string, node: string): Promise<HolderAsked | undefined> {
  try {
    const { data, stat } = await client.getData(node);
    if (!isSessionOwned(stat.ephemeralOwner)) return undefined; // made by hand: holds nothing
    const marked = await markNode(client, node, data);
    return {
      requested: true,
      dir,
      node,
      identity: data.length > 0 ? data.toString('utf8') : null,
      sessionId: stat.ephemeralOwner,
      repeated: marked.version > 1,
    };
  } catch (error) {
    if (ZooKeeperError.is(error, 'NONODE')) return undefined; // it left: the next node may hold now
    throw error;
  }
}
