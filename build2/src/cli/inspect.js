import { CorruptStateError } from '../errors/corrupt-state.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { electionToken } from '../recipes/fencing.js';
import { validateLockName } from '../recipes/lock-name.js';
import { LOCK_DRIVER } from '../recipes/queue/queue-driver.js';
import { sortQueue } from '../recipes/queue/queue-node.js';
import { isReleaseRequested } from '../recipes/queue/release-request.js';
import { ReadyState } from '../recipes/ready/ready-state.js';
import { znodePaths } from '../recipes/znode-paths.js';
import { readReadWriteLock, readSemaphore, splitHolders } from './inspect-shared.js';
/** Version of the `Inspection` shape; bumped only on a breaking change (2: a semaphore's `holders` and `waiters`). */
export const INSPECTION_VERSION = 2;
/**
 * Reads every lock, election, read/write lock and semaphore under `root` (or only those called
 * `name`) without changing anything: it creates no node and sets no watch. Costs 4 listings, then
 * per lock, election, read/write lock or semaphore one listing and one read per queue node (plus
 * one for a lock's or election's ready znode), all sent at once.
 *
 * A reading is not atomic: nodes that leave while it runs are left out, so it shows a state the
 * queue went through or close to it, never a node that was not there.
 */
export async function inspect(client, root, name, known) {
    const at = new Date();
    if (name !== undefined)
        validateLockName(name);
    const lockNames = name === undefined ? await listChildren(client, `${root}/locks`) : [name];
    const electionNames = name === undefined ? await listChildren(client, `${root}/elections`) : [name];
    const readWriteNames = name === undefined ? await listChildren(client, `${root}/rwlocks`) : [name];
    const semaphoreNames = name === undefined ? await listChildren(client, `${root}/semaphores`) : [name];
    const readNodeAt = (path, node, sequence) => readNode(client, path, node, sequence, at.getTime(), known);
    const [locks, elections, readWriteLocks, semaphores] = await Promise.all([
        Promise.all(lockNames.map((lock) => readQueue(client, znodePaths.lockDir(root, lock), 'lock', at.getTime(), known))),
        Promise.all(electionNames.map((election) => readQueue(client, znodePaths.electionDir(root, election), 'n', at.getTime(), known))),
        Promise.all(readWriteNames.map((lock) => readReadWriteLock(client, root, lock, readNodeAt))),
        Promise.all(semaphoreNames.map((semaphore) => readSemaphore(client, root, semaphore, readNodeAt))),
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
    };
}
function sortedByName(readings) {
    return readings.filter((reading) => reading !== undefined).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
/** Pairs names with their readings, drops directories that did not exist, sorts by name. */
function present(names, readings) {
    return names
        .map((name, i) => ({ name, queue: readings[i] }))
        .filter((entry) => entry.queue !== undefined)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
/** Children of `path`; none when it does not exist (nothing was ever locked or elected there). */
async function listChildren(client, path) {
    try {
        return (await client.getChildren(path)).children;
    }
    catch (error) {
        if (ZooKeeperError.is(error, 'NONODE'))
            return [];
        throw error;
    }
}
/** One queue in grant order, or undefined when its directory is gone (a container the server removed). */
async function readQueue(client, dir, marker, now, known) {
    let children;
    try {
        ({ children } = await client.getChildren(dir));
    }
    catch (error) {
        if (ZooKeeperError.is(error, 'NONODE'))
            return undefined;
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
async function readNode(client, path, name, sequence, now, known) {
    const before = known?.get(path);
    if (before)
        return { ...before, ageMs: Math.max(0, now - Date.parse(before.createdAt)) };
    try {
        const { data, stat } = await client.getData(path);
        const node = {
            node: name,
            sequence,
            identity: data.length > 0 ? data.toString('utf8') : null,
            sessionId: stat.ephemeralOwner,
            createdAt: new Date(stat.ctime).toISOString(),
            ageMs: Math.max(0, now - stat.ctime),
            zxid: electionToken(stat.czxid).toString(),
            releaseRequested: isReleaseRequested(stat),
        };
        known?.set(path, node);
        return node;
    }
    catch (error) {
        // Released (or its session ended) between the listing and this read: no longer in the queue.
        if (ZooKeeperError.is(error, 'NONODE'))
            return undefined;
        throw error;
    }
}
async function readReady(client, dir) {
    try {
        const current = await new ReadyState(client, dir).read();
        if (!current)
            return null;
        const { state, token, holder, since, checkpoint } = current.record;
        const ready = { state, token, holder, since: new Date(since).toISOString() };
        return 'checkpoint' in current.record ? { ...ready, checkpoint } : ready;
    }
    catch (error) {
        // Someone wrote something else into the ready znode: show it rather than fail the whole reading.
        if (error instanceof CorruptStateError)
            return { state: 'corrupt', problem: error.problem };
        throw error;
    }
}
//# sourceMappingURL=inspect.js.map