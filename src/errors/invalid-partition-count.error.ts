import { describeValue } from './describe-value.js';
import { ZkLockError } from './zk-lock.error.js';

/** A partition set's count (or a member's capacity) is not a positive integer. */
export class InvalidPartitionCountError extends ZkLockError {
  constructor(
    readonly setName: string,
    readonly field: 'count' | 'capacity',
    readonly value: unknown,
  ) {
    super('ZK_INVALID_PARTITION_COUNT', `Partition set "${setName}": ${field} must be a positive integer, got ${describeValue(value)}`);
  }
}
