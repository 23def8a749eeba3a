import { ZkLockError } from './zk-lock.error.js';

/** Two partition sets of one module share a name (they would share one znode directory, `setPath`). */
export class DuplicatePartitionSetError extends ZkLockError {
  constructor(
    readonly setName: string,
    readonly setPath: string,
  ) {
    super('ZK_DUPLICATE_PARTITION_SET', `Partition set "${setName}" is declared twice (both at ${setPath}); give each set its own name`);
  }
}
