import { ZkLockError } from './zk-lock.error.js';

/**
 * The ensemble's configuration (`/zookeeper/config`) has a line that is not what ZooKeeper
 * writes there (`QuorumServer.toString`: `server.<id>=<host>:<port>:<port>[:<role>][;<client>]`).
 * The session then keeps the servers it knows: a configuration it cannot read changes nothing.
 */
export class EnsembleConfigError extends ZkLockError {
  constructor(
    /** The line as read. */
    readonly line: string,
    detail: string,
  ) {
    super('ZK_ENSEMBLE_CONFIG', `Unreadable line in /zookeeper/config ('${line}'): ${detail}`);
  }
}
