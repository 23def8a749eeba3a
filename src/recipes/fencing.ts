import type { ZkStat } from '../zookeeper/types.js';

/*
 * The fencing token (DESIGN §4), defined here once: a 64-bit zxid that strictly increases over
 * the grants of one lock or the leaderships of one election, also when the container parent is
 * deleted and recreated or the ensemble fails over (zxids only grow; sequence numbers do not).
 * Downstream storage keeps the highest token it has seen and refuses older ones.
 */

/**
 * Which zxid a queue's holders carry: their own node's `czxid` (locks, read/write locks,
 * elections), or the `pzxid` of the listing that granted them (semaphores).
 */
export type TokenRule = 'own-node' | 'granting-listing';

/** The token of a grant by listing under `rule`; for `'own-node'`, our node's (`OwnNode.token`) must be known. */
export function tokenOf(rule: TokenRule, look: { readonly listing: ZkStat; readonly ownToken: bigint | undefined }): bigint {
  if (rule === 'granting-listing') return permitToken(look.listing);
  if (look.ownToken === undefined) throw new RangeError("a grant by our own node needs our node's token");
  return look.ownToken;
}

/**
 * The token of a holder of an exclusive lock, either side of a read/write lock, or an election:
 * the `czxid` of its queue node. Holders follow creation order (a writer or a leader holds only
 * at the head, a reader only with no writer ahead, and a later node is always behind an earlier
 * one), so each holder's token is above every earlier holder's that it excludes. Known without a
 * listing (from the create's reply), so a grant on the predecessor's deletion alone (a hand-off,
 * see `HandOff` and `Succession`) carries it too. It is also what `zk-lock inspect` shows of each
 * node.
 */
export function queueNodeToken(queueNodeCzxid: bigint): bigint {
  return queueNodeCzxid;
}

/**
 * Our node's token where the create did not tell its czxid (the C client has no `create2`): the
 * `pzxid` of a listing that shows no node created in the directory after ours, else undefined
 * (then it is read: `queueNodeToken` of the node's stat). Such a `pzxid` is at or after our
 * create and before the next node's, so it orders us among the holders exactly as our czxid
 * does, and the listing sent right behind the create almost always qualifies: no request is
 * spent on it.
 *
 * How the listing shows it: ZooKeeper counts the creates of a directory's children (its internal
 * `cversion`, which also numbers sequential children, so ours was created as number
 * `ourSequence`), and clients read `2 × creates − numChildren` (`DataNode.copyStat`; 32-bit, so
 * compared modulo 2^32). Anything else that moves it (a failed create) only makes us read the czxid.
 */
export function listingToken(listing: ZkStat, ourSequence: number): bigint | undefined {
  const createdSinceOurs = ((listing.cversion + listing.numChildren - 2 * (ourSequence + 1)) | 0) !== 0;
  return createdSinceOurs ? undefined : listing.pzxid;
}

/**
 * A semaphore holder's token: the `pzxid` of its directory in the listing that granted it. Every
 * grant's listing is answered after whatever freed its permits, which moved `pzxid` past what the
 * holders before saw. Free: the listing is needed anyway. (A semaphore has no hand-off, and its
 * holders overlap: the token orders a holder after those whose permits it took.)
 */
export function permitToken(grantingListing: ZkStat): bigint {
  return grantingListing.pzxid;
}
