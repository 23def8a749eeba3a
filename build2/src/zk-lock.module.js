var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ZkLockEventHub, ZkLockEvents } from './observability/zk-lock-events.js';
import { LeaderRecoveryExplorer } from './services/leader-recovery.explorer.js';
import { ZkLockMetadataAccessor } from './services/zk-lock-metadata.accessor.js';
import { LeaderService } from './services/leader.service.js';
import { LockService } from './services/lock.service.js';
import { zkLockBackendProvider } from './services/zk-lock-backend.js';
import { zkLockEventProviders } from './services/zk-lock-events.provider.js';
import { zkLockOptionsProvider, zkSessionProvider } from './services/zk-session.provider.js';
import { ZkLockConfigurableModule } from './zk-lock.module-definition.js';
import { ZK_LOCK_OPTIONS } from './zk-lock.constants.js';
import { ZkSession } from './zookeeper/supervised-session.js';
/**
 * ZooKeeper-backed fair locks and leader election for Nest.
 *
 * `ZkLockModule.forRoot({ connect: 'zk1:2181,zk2:2181,zk3:2181' })` or `forRootAsync(...)`;
 * `isGlobal: true` makes its providers visible everywhere. It opens one ZooKeeper session at
 * start-up and closes it last on shutdown (`app.close()`); it installs no signal handlers:
 * call `app.enableShutdownHooks()` for that.
 */
let ZkLockModule = class ZkLockModule extends ZkLockConfigurableModule {
    constructor(session, events) {
        super();
        this.session = session;
        this.events = events;
    }
    /** Runs after every `onModuleDestroy` / `beforeApplicationShutdown`: locks and leadership are given up first. */
    onApplicationShutdown() {
        this.session.close();
        this.events.complete(); // after the session's `closed` state
    }
};
ZkLockModule = __decorate([
    Module({
        imports: [DiscoveryModule],
        providers: [zkLockOptionsProvider, ...zkLockEventProviders, zkSessionProvider, zkLockBackendProvider, LockService, LeaderService, ZkLockMetadataAccessor, LeaderRecoveryExplorer],
        exports: [ZkSession, ZK_LOCK_OPTIONS, LockService, LeaderService, ZkLockEvents],
    }),
    __metadata("design:paramtypes", [ZkSession,
        ZkLockEventHub])
], ZkLockModule);
export { ZkLockModule };
//# sourceMappingURL=zk-lock.module.js.map