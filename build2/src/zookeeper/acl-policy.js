import { AclNotAppliedError } from '../errors/acl-not-applied.error.js';
import { SessionClosedError } from '../errors/session-closed.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { hasSessionEnded, isConnectedState } from './session-state.js';
/**
 * Gives `path` the policy's ACL when it lies at or below the policy's root (else does nothing).
 * The `zookeeper` package always creates with the open ACL, so every create of ours is followed
 * by this setAcl, conditional on the node's ACL version. When someone changed the ACL in between
 * (a sibling replica securing the same directory, our own earlier attempt whose reply was lost,
 * or another client), we try again on the version we now see: that succeeds only while the ACL
 * lets us administer the node, and leaves it with exactly ours. An ACL that shuts us out ends in
 * `AclNotAppliedError`. Retries through connection loss while the session may live; once it is
 * `lost` or replaced, rejects with the connection error (the node may be gone with the session,
 * and a new session does not own it): the caller's own loop decides. A vanished node needs nothing.
 * (Never `getAcl` to compare: the package's binding crashes the process when getAcl fails.)
 */
export async function applyAclPolicy(session, policy, path) {
    if (!policy || !(path === policy.root || path.startsWith(`${policy.root}/`)))
        return;
    const sessionId = session.sessionId;
    // A node we just created still has the ACL it was created with (version 0); after a
    // BADVERSION, the version to try is read again (undefined).
    let aclVersion = 0;
    for (;;) {
        try {
            if (aclVersion === undefined) {
                const stat = await session.exists(path);
                if (!stat)
                    return;
                aclVersion = stat.aversion;
            }
            await session.setAcl(path, policy.acl, aclVersion);
            return;
        }
        catch (error) {
            if (ZooKeeperError.is(error, 'NONODE'))
                return;
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
function waitForReconnection(session, sessionId, error) {
    return new Promise((resolve, reject) => {
        const closed = () => new SessionClosedError(error.operation, error.path);
        const subscription = session.state$.subscribe({
            next: (change) => {
                if (change.state === 'closed')
                    finish(closed());
                else if (hasSessionEnded(change, sessionId))
                    finish(error);
                else if (isConnectedState(change.state))
                    finish();
            },
            complete: () => finish(closed()),
        });
        function finish(failure) {
            queueMicrotask(() => subscription.unsubscribe());
            if (failure)
                reject(failure);
            else
                resolve();
        }
    });
}
//# sourceMappingURL=acl-policy.js.map