import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isMarked, markNode } from './node-mark.js';
import { isSessionOwned, sortQueue } from './queue-node.js';
/** Listings before giving up on a queue whose holders keep leaving before the mark lands. */
const MAX_LISTINGS = 5;
/** In a lock's or an election's queue, a node's stat says that its holder was asked to let go (a mark, see `node-mark.ts`). */
export function isReleaseRequested(stat) {
    return isMarked(stat);
}
/**
 * Marks the node at the head of the queue in `dir` (nodes of `markers`). One listing, then the
 * head's data (to keep it, and to name whom we asked) and the mark: 3 requests. A head that left
 * meanwhile (NONODE) is passed for the next node of the same listing, which heads the queue once
 * every node before it is gone; after the listing, the queue is listed again, up to `MAX_LISTINGS`.
 */
export async function requestRelease(client, dir, markers) {
    for (let listings = 0; listings < MAX_LISTINGS; listings++) {
        let children;
        try {
            ({ children } = await client.getChildren(dir));
        }
        catch (error) {
            if (ZooKeeperError.is(error, 'NONODE'))
                return { requested: false, dir, reason: 'free' }; // never used, or a container removed once empty
            throw error;
        }
        const queue = sortQueue(children, markers);
        if (queue.length === 0)
            return { requested: false, dir, reason: 'free' };
        for (const { name } of queue) {
            const asked = await mark(client, dir, `${dir}/${name}`);
            if (asked)
                return asked;
        }
    }
    return { requested: false, dir, reason: 'holders-kept-leaving' };
}
/** Marks `node` if it is there and held by a session; undefined when it is gone or a persistent look-alike (see `isSessionOwned`). */
async function mark(client, dir, node) {
    try {
        const { data, stat } = await client.getData(node);
        if (!isSessionOwned(stat.ephemeralOwner))
            return undefined; // made by hand: holds nothing
        const marked = await markNode(client, node, data);
        return {
            requested: true,
            dir,
            node,
            identity: data.length > 0 ? data.toString('utf8') : null,
            sessionId: stat.ephemeralOwner,
            repeated: marked.version > 1,
        };
    }
    catch (error) {
        if (ZooKeeperError.is(error, 'NONODE'))
            return undefined; // it left: the next node may hold now
        throw error;
    }
}
//# sourceMappingURL=release-request.js.map