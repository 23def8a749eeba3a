import { ZkLockError } from './zk-lock.error.js';

/**
 * The reason of a run's `moveRequested`: partition `partition` of the set at `setPath` is to leave
 * this replica (`reason`: assigned elsewhere, a run threw, the set is closing). Nothing was
 * released yet: the partition stays owned until its runs have ended, so finish at a safe point.
 */
export class PartitionMovingError extends ZkLockError {
  constructor(
    readonly setPath: string,
    readonly partition: number,
    readonly reason: string,
  ) {
    super('ZK_PARTITION_MOVING', `Partition ${partition} of the set at ${setPath} is moving (${reason}); it is released once its running work has ended`);
  }
}
