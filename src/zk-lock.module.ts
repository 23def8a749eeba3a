import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LeaderRecoveryExplorer } from './services/leader-recovery.explorer.js';
import { LeaderService } from './services/leader.service.js';
import { LockService } from './services/lock.service.js';
import { zkLockOptionsProvider, zkSessionProvider } from './services/zk-session.provider.js';
import { ZkLockConfigurableModule } from './zk-lock.module-definition.js';
import { ZK_LOCK_OPTIONS } from './zk-lock.constants.js';
import { ZkSession } from './zookeeper/zk-session.js';

/**
 * ZooKeeper-backed fair locks and leader election for Nest.
 *
 * `ZkLockModule.forRoot({ connect: 'zk1:2181,zk2:2181,zk3:2181' })` or `forRootAsync(...)`;
 * `isGlobal: true` makes its providers visible everywhere. It opens one ZooKeeper session at
 * start-up and closes it last on shutdown (`app.close()`); it installs no signal handlers:
 * call `app.enableShutdownHooks()` for that.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [zkLockOptionsProvider, zkSessionProvider, LockService, LeaderService, LeaderRecoveryExplorer],
  exports: [ZkSession, ZK_LOCK_OPTIONS, LockService, LeaderService],
})
export class ZkLockModule extends ZkLockConfigurableModule implements OnApplicationShutdown {
  constructor(private readonly session: ZkSession) {
    super();
  }

  /** Runs after every `onModuleDestroy` / `beforeApplicationShutdown`: locks and leadership are given up first. */
  onApplicationShutdown(): void {
    this.session.close();
  }
}
