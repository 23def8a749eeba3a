import { ZkLockError } from './zk-lock.error.js';

/** No ZooKeeper server of the connect string accepted a session within the connect timeout. */
export class ConnectTimeoutError extends ZkLockError {
  constructor(
    readonly connectString: string,
    readonly timeoutMs: number,
  ) {
    super(
      'ZK_CONNECT_TIMEOUT',
      `Could not establish a ZooKeeper session with ${connectString} within ${timeoutMs} ms`,
    );
  }
}
