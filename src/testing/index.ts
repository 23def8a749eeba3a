// The `nestjs-zk-lock/testing` entry point: unit-test providers that use locks and leader
// election without a ZooKeeper server.
export { ZkLockTestingModule, type ZkLockTestingOptions } from './zk-lock-testing.module.js';
export { ZkLockTesting, type InterruptOptions } from './zk-lock-testing.js';
export type { MemoryLockState } from './memory-locks.js';
