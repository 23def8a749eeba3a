const QUEUE_NODE = /^_c_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(lock|n|read|write|\d{1,9}of\d{1,9})-(-?\d{1,11})$/;
/**
 * Whether a node with this `ephemeralOwner` may be owned by a session, i.e. may be a holder.
 * Only `0` (a persistent node) is certainly not: a queue-node name on it was written by hand, and
 * it never goes away by itself, so waiting for it would block forever. The other special owners
 * are look-alikes of real sessions and must count as holders: ZooKeeper puts the server id in the
 * top byte of every session id, so a server with id 255 makes sessions `ff…` (the TTL marker) and
 * one with id 128 sessions `80…` (the container marker's byte). A TTL or container node named like
 * a queue node may delay the queue behind it (until it is removed); skipping a live holder would
 * let two in.
 */
export function isSessionOwned(ephemeralOwner) {
    return ephemeralOwner !== '0';
}
/** The path to create (EPHEMERAL_SEQUENTIAL appends the sequence). */
export function queueNodePrefix(dir, id, marker) {
    return `${dir}/_c_${id}-${marker}-`;
}
/** The queue node named `name` if it queues for one of `markers`. */
export function parseQueueNode(name, markers) {
    const match = QUEUE_NODE.exec(name);
    const text = match?.[2];
    const marker = text === undefined ? undefined : text.includes('of') ? 'permits' : text;
    if (!match || !marker || !(typeof markers === 'string' ? marker === markers : markers.includes(marker)))
        return undefined;
    return { name, id: match[1], marker, sequence: Number(match[3]) };
}
/**
 * The queue in grant order. Children that are not queue nodes of these markers (the `ready`
 * znode, anything written by hand) are left out: they can never be taken for holders.
 */
export function sortQueue(children, markers) {
    const queue = [];
    for (const child of children) {
        const node = parseQueueNode(child, markers);
        if (node)
            queue.push(node);
    }
    return queue.sort(compareQueueNodes);
}
/**
 * Creation order: the sign of the difference taken modulo 2^32 (`| 0`), so `2147483647` comes
 * before `-2147483648`. Equal sequences (only possible for a node written by hand) are ordered
 * by name, so that every client sees the same order.
 */
export function compareQueueNodes(a, b) {
    return (a.sequence - b.sequence) | 0 || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
//# sourceMappingURL=queue-node.js.map