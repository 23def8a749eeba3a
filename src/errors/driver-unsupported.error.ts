import { ZkLockError } from './zk-lock.error.js';

/**
 * The request needs a power of ZooKeeper's protocol that the chosen driver does not have: the
 * C client of the `zookeeper` package (`driver: 'native'`) has no multi, create2, persistent
 * watches, removeWatches, getEphemerals or whoAmI. The default driver has them all.
 */
export class DriverUnsupportedError extends ZkLockError {
  constructor(
    readonly operation: string,
    readonly driver: string,
    readonly path?: string,
  ) {
    super(
      'ZK_DRIVER_UNSUPPORTED',
      `Cannot ${operation}${path === undefined ? '' : ` ${path}`}: the '${driver}' driver does not support it; use driver 'typescript'`,
    );
  }
}
