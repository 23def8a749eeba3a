/**
 * What ZooKeeper holds once every worker is gone: queue znodes left in the election's directory and
 * in every lock's (`<root>/locks/*`), and any node left under a read/write lock's directory
 * (`<root>/rwlocks/*`) or a semaphore's (`<root>/semaphores/*`): orphans, invariant 3. And the lock's ready record. The driver's only
 * ZooKeeper session, opened here, after the last worker exited (no child can inherit its socket).
 */
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { parseQueueNode } from '../../src/recipes/queue/queue-node.js';
import { znodePaths } from '../../src/recipes/znode-paths.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { sleep } from '../support/wait.js';
import { ELECTION_NAME, LOCK_NAME } from './chaos-names.js';
/**
 * Waits up to `graceMs` for the queues to empty (a worker killed at the very end leaves nodes until
 * its session expires), then reports what is left.
 */
export async function inspectEndState(connect, root, graceMs) {
    const session = new ZkSession({ connectString: connect, sessionTimeoutMs: 4000, connectTimeoutMs: 20_000 });
    try {
        await session.connect();
        const dirs = [znodePaths.lockDir(root, LOCK_NAME), znodePaths.electionDir(root, ELECTION_NAME)];
        const deadline = Date.now() + graceMs;
        let orphans;
        for (;;) {
            const lockDirs = (await children(session, `${root}/locks`)).map((name) => znodePaths.lockDir(root, name));
            orphans = [
                ...(await Promise.all([...new Set([...dirs, ...lockDirs])].map((dir) => queueNodes(session, dir)))).flat(),
                ...(await recipeNodes(session, root)),
            ];
            if (orphans.length === 0 || Date.now() > deadline)
                break;
            await sleep(200);
        }
        return {
            orphans,
            lockReady: await readReady(session, znodePaths.ready(dirs[0])),
            electionReady: await readReady(session, znodePaths.ready(dirs[1])),
        };
    }
    finally {
        session.close();
    }
}
async function queueNodes(session, dir) {
    return (await children(session, dir)).filter((child) => parseQueueNode(child, 'lock') ?? parseQueueNode(child, 'n')).map((child) => `${dir}/${child}`);
}
/** Every node under `<root>/rwlocks/<name>` and `<root>/semaphores/<name>`. */
async function recipeNodes(session, root) {
    const found = [];
    for (const name of await children(session, `${root}/rwlocks`)) {
        const dir = znodePaths.readWriteLockDir(root, name);
        found.push(...(await children(session, dir)).map((child) => `${dir}/${child}`));
    }
    for (const name of await children(session, `${root}/semaphores`)) {
        const dir = znodePaths.semaphoreDir(root, name);
        found.push(...(await children(session, dir)).map((child) => `${dir}/${child}`));
    }
    return found;
}
/** The children of `path`, none if it does not exist. */
async function children(session, path) {
    try {
        return (await session.getChildren(path)).children;
    }
    catch (error) {
        if (ZooKeeperError.is(error, 'NONODE'))
            return [];
        throw error;
    }
}
async function readReady(session, path) {
    try {
        const { data } = await session.getData(path);
        const record = JSON.parse(data.toString('utf8'));
        return { state: record.state, token: record.token };
    }
    catch (error) {
        if (ZooKeeperError.is(error, 'NONODE'))
            return undefined;
        throw error;
    }
}
//# sourceMappingURL=end-state.js.map