import { Logger, type Provider } from '@nestjs/common';
import type { ZkLockEventSink } from '../observability/zk-lock-event.js';
import { ZkLockEventHub } from '../observability/zk-lock-events.js';
import type { LockRecipe } from '../recipes/lock/lock-client.js';
import { LockClient } from '../recipes/lock/lock-client.js';
import type { Election } from '../recipes/election/leader-election.js';
import { LeaderElection, type LeaderElectionOptions } from '../recipes/election/leader-election.js';
import { validateLockName } from '../recipes/lock-name.js';
import { PartitionSet, type PartitionSetOptions } from '../recipes/partition/partition-set.js';
import { requestRelease, type ReleaseRequest } from '../recipes/queue/release-request.js';
import { znodePaths } from '../recipes/znode-paths.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import type { ZkSessionClient } from '../zookeeper/session-requests.js';
import { ZkSession } from '../zookeeper/supervised-session.js';

/**
 * What `LockService` and `LeaderService` run on: the module's locks and a factory of its
 * elections. `ZkLockModule` provides the ZooKeeper recipes over its session; the testing module
 * (`nestjs-zk-lock/testing`) the same recipes over a session on a simulated server, its elections
 * joining behind stand-in leaders. The services are the same either way.
 */
export interface ZkLockBackend {
  readonly locks: LockRecipe;
  createElection(options: LeaderElectionOptions): Election;
  /**
   * Asks the leader of election `name` to step down (as `Election.requestStepDown`) without
   * making this process a participant: no `Election` is created.
   */
  requestStepDown(name: string): Promise<ReleaseRequest>;
  /** A partition set on the module's session (not started). */
  createPartitionSet(options: PartitionSetOptions): PartitionSet;
}

/** Injection token of the module's `ZkLockBackend`. */
export const ZK_LOCK_BACKEND = Symbol('nestjs-zk-lock:backend');

/** The ZooKeeper backend: `LockClient` and `LeaderElection` over one session. */
export function zooKeeperBackend(session: ZkSessionClient, options: ResolvedZkLockOptions, events?: ZkLockEventSink): ZkLockBackend {
  return {
    locks: new LockClient(session, { root: options.root, identity: options.identity, events, logger: new Logger('ZkLock') }),
    createElection: (electionOptions) => new LeaderElection(session, { ...electionOptions, events }),
    requestStepDown: async (name) => requestRelease(session, znodePaths.electionDir(options.root, validateLockName(name)), 'n'),
    createPartitionSet: (setOptions) => new PartitionSet(session, { ...setOptions, events }),
  };
}

export const zkLockBackendProvider: Provider = {
  provide: ZK_LOCK_BACKEND,
  useFactory: (session: ZkSession, options: ResolvedZkLockOptions, events: ZkLockEventHub) => zooKeeperBackend(session, options, events),
  inject: [ZkSession, ZK_LOCK_OPTIONS, ZkLockEventHub],
};
