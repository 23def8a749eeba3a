import { Logger } from '@nestjs/common';
import { ZkLockEventHub } from '../observability/zk-lock-events.js';
import { LockClient } from '../recipes/lock/lock-client.js';
import { LeaderElection } from '../recipes/election/leader-election.js';
import { validateLockName } from '../recipes/lock-name.js';
import { requestRelease } from '../recipes/queue/release-request.js';
import { znodePaths } from '../recipes/znode-paths.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { ZkSession } from '../zookeeper/supervised-session.js';
/** Injection token of the module's `ZkLockBackend`. */
export const ZK_LOCK_BACKEND = Symbol('nestjs-zk-lock:backend');
/** The ZooKeeper backend: `LockClient` and `LeaderElection` over one session. */
export function zooKeeperBackend(session, options, events) {
    return {
        locks: new LockClient(session, { root: options.root, identity: options.identity, events, logger: new Logger('ZkLock') }),
        createElection: (electionOptions) => new LeaderElection(session, { ...electionOptions, events }),
        requestStepDown: async (name) => requestRelease(session, znodePaths.electionDir(options.root, validateLockName(name)), 'n'),
    };
}
export const zkLockBackendProvider = {
    provide: ZK_LOCK_BACKEND,
    useFactory: (session, options, events) => zooKeeperBackend(session, options, events),
    inject: [ZkSession, ZK_LOCK_OPTIONS, ZkLockEventHub],
};
//# sourceMappingURL=zk-lock-backend.js.map