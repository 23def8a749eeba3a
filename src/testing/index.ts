// The `nestjs-zk-lock/testing` entry point: unit-test providers that use locks and leader
// election on a simulated ZooKeeper, without a server.
export { ZkLockTestingModule, type ZkLockTestingOptions } from './zk-lock-testing.module.js';
export { ZkLockTesting, type InterruptOptions, type LockState, type CutConnectionOptions } from './zk-lock-testing.js';
