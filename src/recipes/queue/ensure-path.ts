import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { parentOf } from '../../zookeeper/znode-path.js';

/**
 * Creates `path` (as `mode`) and any missing ancestors (persistent). Called only after a
 * request failed with NONODE, so the common path costs nothing. Lock directories are
 * CONTAINER nodes: the server deletes them once their last child is gone, so per-entity locks
 * (`order:123`) leave nothing behind; whoever finds one missing simply creates it again.
 */
export async function ensurePath(client: ZkSessionClient, path: string, mode: 'persistent' | 'container'): Promise<void> {
  for (;;) {
    try {
      await client.create(path, null, mode);
      return;
    } catch (error) {
      // Someone created it first: a sibling replica, or our own create whose reply was lost (so
      // it may still have the open ACL). `secure` settles which, with an ACL policy configured.
      if (ZooKeeperError.is(error, 'NODEEXISTS')) return client.secure(path);
      if (!ZooKeeperError.is(error, 'NONODE')) throw error;
      await ensurePath(client, parentOf(path), 'persistent');
    }
  }
}
