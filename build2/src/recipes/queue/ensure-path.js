import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { parentOf } from '../../zookeeper/znode-path.js';
/**
 * Creates `path` (as `mode`) and any missing ancestors (persistent). Called only after a
 * request failed with NONODE, so the common path costs nothing. Lock directories are
 * CONTAINER nodes: the server deletes them once their last child is gone, so per-entity locks
 * (`order:123`) leave nothing behind; whoever finds one missing simply creates it again.
 */
export async function ensurePath(client, path, mode) {
    for (;;) {
        try {
            await client.create(path, null, mode);
            return;
        }
        catch (error) {
            // Someone created it first: a sibling replica, or our own create whose reply was lost (so
            // it may still have the open ACL). `secure` settles which, with an ACL policy configured.
            if (ZooKeeperError.is(error, 'NODEEXISTS'))
                return client.secure(path);
            if (!ZooKeeperError.is(error, 'NONODE'))
                throw error;
            await ensurePath(client, parentOf(path), 'persistent');
        }
    }
}
/**
 * The fresh-name path (issue 19): once our node's create found no queue directory `dir` (a name
 * not used yet, or a directory the server swept as an empty container), the next look sends the
 * directory's create right ahead of our node's create and listing. ZooKeeper runs one session's
 * requests in order, so that is one round trip, two for a fresh name in all.
 *
 * Why not one: creating the directory blind on every first use would save the failed round trip,
 * but costs a NODEEXISTS write (a write through the leader) whenever the directory exists, as it
 * does for every process joining a busy lock. Trying our node first costs nothing then.
 *
 * Resolves with the create's error, undefined if it made the directory. Never rejects.
 */
export function sendDirectoryCreate(client, dir, mode) {
    return client.create(dir, null, mode).then(() => undefined, (error) => error);
}
/**
 * What `sendDirectoryCreate` came back with (`dirError`). Made or found: nothing to do. NONODE:
 * the parent is missing too (a new root), made here for the next look. Anything else is thrown:
 * NOAUTH on the parent, or (with an ACL policy) a directory another client took over before its
 * ACL was set, which is never used (see `ZkSession.create`).
 */
export async function settleDirectoryCreate(client, dir, dirError) {
    if (dirError === undefined || ZooKeeperError.is(dirError, 'NODEEXISTS'))
        return;
    if (!ZooKeeperError.is(dirError, 'NONODE'))
        throw dirError;
    await ensurePath(client, parentOf(dir), 'persistent');
}
//# sourceMappingURL=ensure-path.js.map