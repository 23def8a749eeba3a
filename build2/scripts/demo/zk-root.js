/**
 * Removes the demo's znodes from a ZooKeeper the user pointed us at (`ZK_CONNECT`), once every
 * replica has exited. This is the demo's only ZooKeeper session, opened after the last child
 * process was spawned (the `zookeeper` package would leak its socket into later children).
 */
import { ZkSession, ZooKeeperError } from '../../src/index.js';
export async function removeTree(connect, root) {
    const session = new ZkSession({ connectString: connect, sessionTimeoutMs: 10_000, connectTimeoutMs: 10_000 });
    try {
        await session.connect();
        await remove(session, root);
    }
    finally {
        session.close();
    }
}
async function remove(session, path) {
    try {
        const { children } = await session.getChildren(path);
        for (const child of children)
            await remove(session, `${path}/${child}`);
        await session.delete(path);
    }
    catch (error) {
        if (!ZooKeeperError.is(error, 'NONODE'))
            throw error; // already gone (a container, or never made)
    }
}
//# sourceMappingURL=zk-root.js.map