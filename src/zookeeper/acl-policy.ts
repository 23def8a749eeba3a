import { AclNotAppliedError } from '../errors/acl-not-applied.error.js';
import { SessionClosedError } from '../errors/session-closed.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { hasSessionEnded, isConnectedState } from './session-state.js';
import type { ZkAcl, ZnodeAclPolicy } from './types.js';
import type { ZkSessionClient } from './session-requests.js';

/** The ACL `policy` gives `path`: the policy's when `path` lies at or below its root, else none. */
export function aclOf(policy: ZnodeAclPolicy | undefined, path: string): readonly ZkAcl[] | undefined {
  return policy && (path === policy.root || path.startsWith(`${policy.root}/`)) ? policy.acl : undefined;
}

/**
 * Gives `path` the policy's ACL when it lies at or below the policy's root (else does nothing).
 * The default driver creates nodes with the policy's ACL already; the C client of the `zookeeper`
 * package (`driver: 'native'`) always creates with the open ACL, so there every create of ours is
 * followed by this setAcl, conditional on the node's ACL version. It also secures a node found
 * after a create whose reply was lost, and a directory a sibling created. When someone changed the ACL in between
 * (a sibling replica securing the same directory, our own earlier attempt whose reply was lost,
 * or another client), we try again on the version we now see: that succeeds only while the ACL
 * lets us administer the node, and leaves it with exactly ours. An ACL that shuts us out ends in
 * `AclNotAppliedError`. Retries through connection loss while the session may live; once it is
 * `lost` or replaced, rejects with the connection error (the node may be gone with the session,
 * and a new session does not own it): the caller's own loop decides. A vanished node needs nothing.
 * (Never `getAcl` to compare: the package's binding crashes the process when getAcl fails.)
 */
export async function applyAclPolicy(session: ZkSessionClient, policy: ZnodeAclPolicy | undefined, path: string): Promise<void> {
  if (!policy || !aclOf(policy, path)) return;
  const sessionId = session.sessionId;
  // A node we just created still has the ACL it was created with (version 0); after a
  // BADVERSION, the version to try is read again (undefined).
  let aclVersion: number | undefined = 0;
  for (;;) {
    try {
      if (aclVersion === undefined) {
        const stat = await session.exists(path);
        if (!stat) return;
        aclVersion = stat.aversion;
      }
      await session.setAcl(path, policy.acl, aclVersion);
      return;
    } catch (error) {
      if (ZooKeeperError.is(error, 'NONODE')) return;
      if (ZooKeeperError.is(error, 'BADVERSION')) {
        aclVersion = undefined;
        continue;
      }
      if (error instanceof ZooKeeperError && error.isConnectionError) {
        await waitForReconnection(session, sessionId, error);
        continue;
      }
      if (error instanceof ZooKeeperError) {
        throw new AclNotAppliedError(path, `setAcl failed with ${error.zkCode}: another client's ACL shuts this session out`, { cause: error });
      }
      throw error;
    }
  }
}

/**
 * Resolves once session `sessionId` is connected again; rejects with `error` (a connection error)
 * as soon as it is `lost` or replaced, and with `SessionClosedError` when closed.
 */
function waitForReconnection(session: ZkSessionClient, sessionId: string | undefined, error: ZooKeeperError): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const closed = () => new SessionClosedError(error.operation, error.path);
    const subscription = session.state$.subscribe({
      next: (change) => {
        if (change.state === 'closed') finish(closed());
        else if (hasSessionEnded(change, sessionId)) finish(error);
        else if (isConnectedState(change.state)) finish();
      },
      complete: () => finish(closed()),
    });
    function finish(failure?: unknown) {
      queueMicrotask(() => subscription.unsubscribe());
      if (failure) reject(failure);
      else resolve();
    }
  });
}
