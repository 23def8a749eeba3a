import { describeValue } from './describe-value.js';
import { ZkLockError } from './zk-lock.error.js';

/** A partition number outside 0 … count - 1 of its set (at `setPath`). */
export class PartitionOutOfRangeError extends ZkLockError {
  constructor(
    readonly setPath: string,
    readonly partition: unknown,
    readonly count: number,
  ) {
    super('ZK_PARTITION_OUT_OF_RANGE', `Partition ${describeValue(partition)} of the set at ${setPath} is out of range: expected an integer from 0 to ${count - 1}`);
  }
}
