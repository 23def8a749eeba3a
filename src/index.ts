// The public API of nestjs-zk-lock. Anything not exported here is internal.
export { ZkLockModule } from './zk-lock.module.js';
export type { ZkLockModuleOptions, ResolvedZkLockOptions } from './zk-lock.options.js';
export type { ZkLockElectionOptions } from './zk-lock.options.js';
export { ZK_LOCK_OPTIONS } from './zk-lock.constants.js';
export {
  ZkLockExceptionFilter,
  ZK_LOCK_EXCEPTION_FILTER_OPTIONS,
  type ZkLockExceptionFilterOptions,
  type ZkLockRpcError,
} from './filters/zk-lock-exception.filter.js';
export { httpAnswerOf, type HttpAnswer } from './filters/error-answers.js';

export { LockService } from './services/lock.service.js';
export type { OnBusy, WithLockOptions, ReadWriteLockOptions, SemaphoreOptions, SemaphorePermits } from './services/lock-options.js';
export { HeldLock } from './services/held-lock.js';
export { WithLock, type LockNameSource, type WithLockDecoratorOptions } from './decorators/with-lock.decorator.js';
export { WithLocks, type LockNamesSource } from './decorators/with-locks.decorator.js';
export { WithReadLock, WithWriteLock } from './decorators/with-read-write-lock.decorator.js';
export { WithSemaphore } from './decorators/with-semaphore.decorator.js';
export type { WithLocksOptions } from './services/lock-set.js';
export { Lease } from './recipes/lock/lease.js';
export { LockClient, type AcquireOptions, type LockClientOptions, type LockKind } from './recipes/lock/lock-client.js';
export type { PermitRequest } from './recipes/semaphore/permit-pool.js';
export type { ReleaseRequest, HolderAsked, NobodyAsked } from './recipes/queue/release-request.js';
export type { InterruptedSection, RecoveryHandler, RecoverySuccessor } from './recipes/ready/ready-state.js';
export { LeaderService } from './services/leader.service.js';
export { LeaderOnly } from './decorators/leader-only.decorator.js';
export { OnLeaderRecovery } from './decorators/on-leader-recovery.decorator.js';
export { LeaderElection, type LeaderElectionOptions, type LeaderElectionLogger } from './recipes/election/leader-election.js';
export { LeaderSection } from './recipes/election/leader-work.js';
export type { LeaderSuspendPolicy } from './recipes/election/leadership-term.js';
export type { Election } from './recipes/election/leader-election.js';
export { PartitionService } from './services/partition.service.js';
export { ForEachOwnedPartition } from './decorators/for-each-owned-partition.decorator.js';
export { OnPartitionRecovery } from './decorators/on-partition-recovery.decorator.js';
export { PartitionSet, type PartitionSetOptions, type PartitionSetLogger, type PartitionSection, type PartitionRecoveryHandler } from './recipes/partition/partition-set.js';
export { assignPartitions, type PartitionMember, type Owners } from './recipes/partition/assignment.js';
export type { ZkLockPartitionOptions } from './zk-lock.options.js';

export { ZkLockEvents } from './observability/zk-lock-events.js';
export {
  ZK_LOCK_CHANNELS,
  type ZkLockChannel,
  type ZkLockEvent,
  type LockEvent,
  type LockWaitStartedEvent,
  type LockAcquiredEvent,
  type LockReleasedEvent,
  type LockReleaseRequestedEvent,
  type LockLostEvent,
  type LockTimeoutEvent,
  type LockAbortedEvent,
  type LockBusyEvent,
  type LockFailedEvent,
  type LockRecoveryEvent,
  type LeadershipEvent,
  type LeadershipGainedEvent,
  type LeadershipLostEvent,
  type LeadershipRecoveryEvent,
  type LeadershipStepDownEvent,
  type SessionEvent,
  type SessionStateEvent,
} from './observability/zk-lock-event.js';

export { ZkSession, type ZkSessionOptions, type ZkSessionLogger } from './zookeeper/supervised-session.js';
export type { ProtocolPower, ZkSessionClient } from './zookeeper/session-requests.js';
export type { MultiOp, MultiResult } from './zookeeper/protocol/multi.js';
export type { ZkClient } from './zookeeper/requests.js';
export type { SessionState, SessionStateChange } from './zookeeper/session-state.js';
export type { ClientLogLevel } from './zookeeper/zookeeper-handle.js';
export type { ZkDriver } from './zookeeper/open-session-handle.js';
export type { ZkTlsOptions } from './zookeeper/protocol/server-link.js';
// A single-member ZooKeeper without Java, for development and tests (`nestjs-zk-lock dev-server`).
export { DevServer, type DevServerOptions } from './dev-server/dev-server.js';
export {
  CREATOR_ALL_ACL,
  OPEN_ACL_UNSAFE,
  ZK_PERMS,
  type CreateMode,
  type Watcher,
  type WatchEvent,
  type WatchEventType,
  type ZkAcl,
  type ZkAuth,
  type ZkIdentity,
  type ZkStat,
  type ZnodeAclPolicy,
} from './zookeeper/types.js';

export { ZkLockError } from './errors/zk-lock.error.js';
export { ZooKeeperError, type ZooKeeperErrorName } from './errors/zookeeper.error.js';
export { ZooKeeperUnreachableError } from './errors/zookeeper-unreachable.error.js';
export { ConnectTimeoutError } from './errors/connect-timeout.error.js';
export { InvalidOptionsError } from './errors/invalid-options.error.js';
export { SessionClosedError } from './errors/session-closed.error.js';
export { RecordTooLargeError } from './errors/record-too-large.error.js';
export { InvalidLockNameError } from './errors/invalid-lock-name.error.js';
export { LockTimeoutError } from './errors/lock-timeout.error.js';
export { LockAbortedError } from './errors/lock-aborted.error.js';
export { LockBusyError } from './errors/lock-busy.error.js';
export { LockLostError } from './errors/lock-lost.error.js';
export { ReleaseRequestedError } from './errors/release-requested.error.js';
export { RecoveryFailedError } from './errors/recovery-failed.error.js';
export { CorruptStateError } from './errors/corrupt-state.error.js';
export { AclNotAppliedError } from './errors/acl-not-applied.error.js';
export { QueueNodeNotRemovedError } from './errors/queue-node-not-removed.error.js';
export { DecoratorMisuseError } from './errors/decorator-misuse.error.js';
export { LeadershipLostError } from './errors/leadership-lost.error.js';
export { ElectionClosedError } from './errors/election-closed.error.js';
export { RepeatedConnectionLossError } from './errors/repeated-connection-loss.error.js';
export { RecordContendedError } from './errors/record-contended.error.js';
export { LockOrderError } from './errors/lock-order.error.js';
export { LockUpgradeError } from './errors/lock-upgrade.error.js';
export { InvalidPartitionCountError } from './errors/invalid-partition-count.error.js';
export { UnknownPartitionSetError } from './errors/unknown-partition-set.error.js';
export { PartitionOutOfRangeError } from './errors/partition-out-of-range.error.js';
export { DuplicatePartitionSetError } from './errors/duplicate-partition-set.error.js';
export { PartitionMovingError } from './errors/partition-moving.error.js';
export { SemaphorePermitsMismatchError } from './errors/semaphore-permits-mismatch.error.js';
export { NativeClientMissingError } from './errors/native-client-missing.error.js';
export { TlsHandshakeError } from './errors/tls-handshake.error.js';
export { ZooKeeperProtocolError } from './errors/zookeeper-protocol.error.js';
export { DevServerListenError } from './errors/dev-server-listen.error.js';
export { DevServerDataFileError } from './errors/dev-server-data-file.error.js';
