import { Logger, type Provider } from '@nestjs/common';
import { ZkLockEventHub } from '../observability/zk-lock-events.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { ZK_LOCK_MODULE_OPTIONS } from '../zk-lock.module-definition.js';
import type { ResolvedZkLockOptions, ZkLockModuleOptions } from '../zk-lock.options.js';
import { resolveZkLockOptions } from '../zk-lock.options-validator.js';
import { testRunnerOf } from '../zk-lock.test-runner.js';
import { ZkSession } from '../zookeeper/supervised-session.js';

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
  useFactory: async (options: ResolvedZkLockOptions, events: ZkLockEventHub, given: ZkLockModuleOptions) => {
    const logger = new Logger('ZkLock');
    const runner = given.connectTimeoutMs === undefined ? testRunnerOf(process.env) : undefined;
    if (runner) {
      logger.log(
        `Waiting up to ${options.connectTimeoutMs} ms for ZooKeeper at ${options.connect}: the connect timeout under a test runner ` +
          `(${runner} is set), so that a missing server fails start-up before the runner's hook timeout; set connectTimeoutMs to change it`,
      );
    }
    const session = new ZkSession({
      connectString: options.connect,
      sessionTimeoutMs: options.sessionTimeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      auth: options.auth,
      ...(options.acl && { acl: { root: options.root, acl: options.acl } }),
      clientLogLevel: options.clientLogLevel,
      followEnsemble: options.followEnsemble,
      driver: options.driver,
      tls: options.tls,
      maxRecordBytes: options.maxRecordBytes,
      logger,
      events,
    });
    await session.connect();
    try {
      if (options.acl) await warnIfRootUnprotected(session, options, logger);
    } catch (error) {
      // Start-up fails here: nobody will own the session, whose native handle would keep the process alive.
      session.close();
      throw error;
    }
    return session;
  },
  inject: [ZK_LOCK_OPTIONS, ZkLockEventHub, ZK_LOCK_MODULE_OPTIONS],
};

/**
 * The ACL applies to the nodes this module creates. A root created before the ACL was configured
 * keeps the open ACL it was created with (ACL version 0: it was created open), and
 * so does what was created under it then: say so at start-up. (Not `getAcl`: see `ZkSession.secure`.)
 */
async function warnIfRootUnprotected(session: ZkSession, options: ResolvedZkLockOptions, logger: Logger): Promise<void> {
  const stat = await session.exists(options.root);
  if (stat === null || stat.aversion > 0) return; // created, with the ACL, on first use; or secured
  logger.warn(
    `${options.root} still has the open ACL it was created with, although \`acl\` is configured: it was created ` +
      'before, or by another client. Other clients may change what lies under it; set its ACL (zkCli: setAcl -R) or use a new root.',
  );
}
