// The public API of nestjs-zk-lock. Anything not exported here is internal.
export { ZkLockModule } from './zk-lock.module.js';
export type { ZkLockModuleOptions, ResolvedZkLockOptions } from './zk-lock.options.js';
export { ZK_LOCK_OPTIONS } from './zk-lock.constants.js';

export { ZkSession, type ZkSessionOptions, type ZkSessionLogger } from './zookeeper/zk-session.js';
export type { ZkSessionClient } from './zookeeper/zk-session-client.js';
export type { ZkClient } from './zookeeper/zk-client.js';
export type { SessionState, SessionStateChange } from './zookeeper/session-state.js';
export type { ClientLogLevel } from './zookeeper/zookeeper-client.js';
export {
  CREATOR_ALL_ACL,
  OPEN_ACL_UNSAFE,
  ZK_PERMS,
  type CreateMode,
  type Watcher,
  type WatchEvent,
  type WatchEventType,
  type ZkAcl,
  type ZkAuth,
  type ZkStat,
} from './zookeeper/types.js';

export { ZkLockError } from './errors/zk-lock.error.js';
export { ZooKeeperError, type ZooKeeperErrorName } from './errors/zookeeper.error.js';
export { ConnectTimeoutError } from './errors/connect-timeout.error.js';
export { InvalidOptionsError } from './errors/invalid-options.error.js';
export { SessionClosedError } from './errors/session-closed.error.js';
