import { ZkLockError } from './zk-lock.error.js';

/** The session was closed by its owner (application shutdown); no further requests are possible. */
export class SessionClosedError extends ZkLockError {
  constructor(operation: string) {
    super('ZK_SESSION_CLOSED', `Cannot ${operation}: the ZooKeeper session has been closed`);
  }
}
