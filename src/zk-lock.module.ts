import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ZkLockEventHub, ZkLockEvents } from './observability/zk-lock-events.js';
import { ZK_LOCK_EXPORTED_SERVICES, ZK_LOCK_SERVICES } from './services/zk-lock-services.js';
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
@Module({
  imports: [DiscoveryModule],
  providers: [
    zkLockOptionsProvider,
    ...zkLockEventProviders,
    zkSessionProvider,
    zkLockBackendProvider,
    ...ZK_LOCK_SERVICES,
  ],
  exports: [ZkSession, ZK_LOCK_OPTIONS, ...ZK_LOCK_EXPORTED_SERVICES, ZkLockEvents],
})
export class ZkLockModule extends ZkLockConfigurableModule implements OnApplicationShutdown {
  constructor(
    private readonly session: ZkSession,
    private readonly events: ZkLockEventHub,
  ) {
    super();
  }

  /** Runs after every `onModuleDestroy` / `beforeApplicationShutdown`: locks and leadership are given up first. */
  async onApplicationShutdown(): Promise<void> {
    const released = this.session.close();
    this.events.complete(); // after the session's `closed` state
    // `app.close()` returns once the connection is gone too: nothing of ours is left open after it.
    await released;
  }
}
