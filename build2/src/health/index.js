// The `nestjs-zk-lock/health` entry point: needs the optional peer dependency `@nestjs/terminus`,
// which is why the main entry point does not export it.
export { ZkLockHealthIndicator, } from './zk-lock.health-indicator.js';
//# sourceMappingURL=index.js.map