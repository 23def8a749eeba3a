// The `nestjs-zk-lock/testing` entry point: unit-test providers that use locks and leader
// election on a simulated ZooKeeper, without a server.
export { ZkLockTestingModule } from './zk-lock-testing.module.js';
export { ZkLockTesting } from './zk-lock-testing.js';
//# sourceMappingURL=index.js.map