import { SemaphorePermitsMismatchError } from '../errors/semaphore-permits-mismatch.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { placeIn } from '../recipes/queue/queue-driver.js';
import { isSessionOwned, sortQueue } from '../recipes/queue/queue-node.js';
import { READ_DRIVER, WRITE_DRIVER } from '../recipes/read-write/read-write-drivers.js';
import { PermitDriver, permitsOf } from '../recipes/semaphore/permit-driver.js';
import { znodePaths } from '../recipes/znode-paths.js';
/**
 * Who holds a queue read in grant order, by the recipe's own rule (`placeIn` with the driver each
 * node queued with), as the queue itself decides it: persistent look-alikes hold nothing and are
 * left out of the rule (`isSessionOwned`; they are listed with the waiters), and a semaphore node
 * queued under another capacity than one ahead of it never holds (its caller was refused).
 */
export function splitHolders(nodes, driverOf) {
    const present = nodes.filter((node) => node.read !== undefined);
    const live = present.filter((node) => isSessionOwned(node.read.sessionId));
    const queue = live.map((node) => node.queued);
    const holding = new Set(live.filter((node, index) => holdsAt(driverOf(node.queued), queue, index)).map((node) => node.read));
    return { holders: present.filter((node) => holding.has(node.read)).map((node) => node.read), waiters: present.filter((node) => !holding.has(node.read)).map((node) => node.read) };
}
function holdsAt(driver, queue, index) {
    try {
        return placeIn(driver, queue, index).holds;
    }
    catch (error) {
        if (error instanceof SemaphorePermitsMismatchError)
            return false;
        throw error;
    }
}
/** Children of `path`, or undefined when it does not exist. */
async function childrenOf(client, path) {
    try {
        return (await client.getChildren(path)).children;
    }
    catch (error) {
        if (ZooKeeperError.is(error, 'NONODE'))
            return undefined;
        throw error;
    }
}
/** The read/write lock `name` under `root`, or undefined when its directory is gone. */
export async function readReadWriteLock(client, root, name, readNode) {
    const path = znodePaths.readWriteLockDir(root, name);
    const children = await childrenOf(client, path);
    if (!children)
        return undefined;
    const queue = sortQueue(children, ['read', 'write']);
    const read = await Promise.all(queue.map(async (queued) => {
        const inspected = await readNode(`${path}/${queued.name}`, queued.name, queued.sequence);
        return { queued, read: inspected && { ...inspected, mode: queued.marker } };
    }));
    return { name, path, ...splitHolders(read, (node) => (node.marker === 'read' ? READ_DRIVER : WRITE_DRIVER)) };
}
/** The semaphore `name` under `root`, or undefined when its directory is gone. */
export async function readSemaphore(client, root, name, readNode) {
    const path = znodePaths.semaphoreDir(root, name);
    const children = await childrenOf(client, path);
    if (!children)
        return undefined;
    const read = await Promise.all(sortQueue(children, 'permits').map(async (queued) => {
        const inspected = await readNode(`${path}/${queued.name}`, queued.name, queued.sequence);
        // Nobody asks a semaphore's holders to let go; a mark on its node is a grant (`node-mark.ts`).
        return { queued, read: inspected && { ...inspected, take: permitsOf(queued.name).take, releaseRequested: false } };
    }));
    const { holders, waiters } = splitHolders(read, (node) => new PermitDriver(path, permitsOf(node.name)));
    const head = holders[0] ?? waiters.find((node) => isSessionOwned(node.sessionId));
    const permits = head ? permitsOf(head.node).permits : null;
    return { name, path, permits, taken: holders.reduce((sum, node) => sum + node.take, 0), holders, waiters };
}
//# sourceMappingURL=inspect-shared.js.map