import { ZkLockError } from './zk-lock.error.js';

/** The lock was not granted within the wait timeout; our place in the queue has been given up. */
export class LockTimeoutError extends ZkLockError {
  constructor(
    readonly lockPath: string,
    readonly waitMs: number,
  ) {
    super('ZK_LOCK_TIMEOUT', `Lock ${lockPath} was not acquired within ${waitMs} ms`);
  }
}
