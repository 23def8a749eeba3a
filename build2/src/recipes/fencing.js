/*
 * The fencing token (DESIGN §4), defined here once: a 64-bit zxid that strictly increases over
 * the grants of one lock or the leaderships of one election, also when the container parent is
 * deleted and recreated or the ensemble fails over (zxids only grow; sequence numbers do not).
 * Downstream storage keeps the highest token it has seen and refuses older ones.
 */
/**
 * A lock's token: the `pzxid` of its directory in the listing that showed the holder at the head.
 * Every grant's listing is answered after the previous holder's node was deleted, which moved
 * `pzxid` past anything that holder saw. Free: the listing is needed anyway.
 */
export function lockToken(grantingListing) {
    return grantingListing.pzxid;
}
/**
 * A leader's token: the `czxid` of its queue node. Leaders follow queue order, which is creation
 * order. A succession grant has no listing (see `Succession`), so the listing's `pzxid` cannot serve.
 * It is also what `zk-lock inspect` shows of each node: a leader's token exactly, a lock holder's
 * lower bound.
 */
export function electionToken(queueNodeCzxid) {
    return queueNodeCzxid;
}
//# sourceMappingURL=fencing.js.map