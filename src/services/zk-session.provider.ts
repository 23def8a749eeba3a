import { Logger, type Provider } from '@nestjs/common';
import { ZkLockEventHub } from '../observability/zk-lock-events.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { ZK_LOCK_MODULE_OPTIONS } from '../zk-lock.module-definition.js';
import type { ResolvedZkLockOptions, ZkLockModuleOptions } from '../zk-lock.options.js';
import { resolveZkLockOptions } from '../zk-lock.options-validator.js';
import { ZkSession } from '../zookeeper/zk-session.js';

/** Validated options: a bad option fails application start-up with `InvalidOptionsError`. */
export const zkLockOptionsProvider: Provider = {
  provide: ZK_LOCK_OPTIONS,
  useFactory: (options: ZkLockModuleOptions) => resolveZkLockOptions(options),
  inject: [ZK_LOCK_MODULE_OPTIONS],
};

/**
 * The module's one ZooKeeper session, injectable as `ZkSession`. Start-up waits for it to
 * connect (or fails with `ConnectTimeoutError`); `ZkLockModule` closes it on shutdown.
 */
export const zkSessionProvider: Provider = {
  provide: ZkSession,
  useFactory: async (options: ResolvedZkLockOptions, events: ZkLockEventHub) => {
    const session = new ZkSession({
      connectString: options.connect,
      sessionTimeoutMs: options.sessionTimeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      auth: options.auth,
      clientLogLevel: options.clientLogLevel,
      logger: new Logger('ZkLock'),
      events,
    });
    await session.connect();
    return session;
  },
  inject: [ZK_LOCK_OPTIONS, ZkLockEventHub],
};
