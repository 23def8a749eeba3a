import { ZkLockError } from './zk-lock.error.js';

/** A znode of the library's state (a ready record, a partition set's member or assignment) holds something this library did not write. */
export class CorruptStateError extends ZkLockError {
  constructor(
    readonly statePath: string,
    readonly problem: string,
  ) {
    super('ZK_CORRUPT_STATE', `State at ${statePath} is unreadable: ${problem}`);
  }
}
