import { LeaderRecoveryExplorer } from './leader-recovery.explorer.js';
import { LeaderService } from './leader.service.js';
import { LockService } from './lock.service.js';
import { PartitionRecoveryExplorer } from './partition-recovery.explorer.js';
import { PartitionService } from './partition.service.js';
import { ZkLockMetadataAccessor } from './zk-lock-metadata.accessor.js';

/**
 * The services of the module and what finds their decorators, the same in `ZkLockModule` and in
 * `ZkLockTestingModule` (which differ only in the session and backend below them): one list, so
 * that a new service cannot be in one and missing from the other.
 */
export const ZK_LOCK_SERVICES = [LockService, LeaderService, PartitionService, ZkLockMetadataAccessor, LeaderRecoveryExplorer, PartitionRecoveryExplorer];

/** The services an application injects (exported by both modules). */
export const ZK_LOCK_EXPORTED_SERVICES = [LockService, LeaderService, PartitionService];
