import { Module, type DynamicModule, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { describeValue } from '../errors/describe-value.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { zkLockExceptionFilterProviders } from '../filters/zk-lock-exception-filter.providers.js';
import { ZkLockEventHub, ZkLockEvents } from '../observability/zk-lock-events.js';
import { LeaderService } from '../services/leader.service.js';
import { ZK_LOCK_BACKEND, zooKeeperBackend, type ZkLockBackend } from '../services/zk-lock-backend.js';
import { ZK_LOCK_EXPORTED_SERVICES, ZK_LOCK_SERVICES } from '../services/zk-lock-services.js';
import { zkLockEventProviders } from '../services/zk-lock-events.provider.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { refuseUnknownKeys } from '../errors/known-keys.js';
import { resolveZkLockOptions, ZK_LOCK_OPTION_KEYS } from '../zk-lock.options-validator.js';
import { ZK_LOCK_MODULE_OPTIONS, type ZkLockModuleExtras } from '../zk-lock.module-definition.js';
import { ZkLockModule } from '../zk-lock.module.js';
import type { ResolvedZkLockOptions, ZkLockModuleOptions } from '../zk-lock.options.js';
import { ZkSession } from '../zookeeper/supervised-session.js';
import { StandIns } from './stand-ins.js';
import { testingBackend } from './testing-election.js';
import { TestingEnsemble } from './testing-ensemble.js';
import { ZkLockTesting } from './zk-lock-testing.js';

/**
 * Options of `ZkLockTestingModule.forRoot`: `ZkLockModule`'s own, so that one options object
 * serves both and a test behaves as production (`exceptionFilter`, `election`, `identity`,
 * `drainTimeoutMs`, `maxRecordBytes`, `isGlobal` act as there). What concerns the connection to
 * a real ensemble (`connect`, `root`, `sessionTimeoutMs`, `connectTimeoutMs`, `auth`, `acl`,
 * `tls`, `driver`, `clientLogLevel`, `followEnsemble`) is accepted and ignored: the simulated server has none of it.
 */
export interface ZkLockTestingOptions extends Partial<ZkLockModuleOptions>, Partial<ZkLockModuleExtras> {}

/**
 * `ZkLockModule` on a simulated ZooKeeper, for unit tests of the application's own providers: the
 * production `ZkSession`, `LockService`, `LeaderService` and `PartitionService` (so `@WithLock`,
 * `@LeaderOnly`, `@OnLeaderRecovery`, `@ForEachOwnedPartition` and constructor injection work
 * unchanged; the process is the only replica of each partition set, so it owns every partition) run on a simulated server inside
 * the test process (`TestingEnsemble`), plus `ZkLockTesting` to drive leadership, interruptions,
 * lost locks, the server's clock and the connection, and `ZkLockEvents`. No server, no native
 * ZooKeeper client. The session connects while the module is compiled; `close()` ends it, and
 * nothing of the module keeps the process alive, closed or not.
 *
 * ```ts
 * const moduleRef = await Test.createTestingModule({
 *   imports: [ZkLockTestingModule.forRoot()],
 *   providers: [ReportService],
 * }).compile();
 * await moduleRef.init(); // discovers @OnLeaderRecovery handlers, as an application start does
 * await moduleRef.get(ZkLockTesting).setLeader(true);
 * ```
 *
 * An e2e test of an application that imports its own `ZkLockModule` swaps it with the options it
 * was built with (`forRoot` or `forRootAsync`):
 * `.overrideModule(zkLockModule).useModule(ZkLockTestingModule.replacing(zkLockModule))`.
 */
@Module({})
export class ZkLockTestingModule implements OnApplicationShutdown {
  constructor(
    private readonly zk: TestingEnsemble,
    private readonly session: ZkSession,
    private readonly events: ZkLockEventHub,
  ) {}

  static forRoot(options: ZkLockTestingOptions = {}): DynamicModule {
    if (options === null || typeof options !== 'object') throw new InvalidOptionsError('options', 'expected an object');
    refuseUnknownKeys(options, TESTING_KEYS);
    const { isGlobal, exceptionFilter, ...moduleOptions } = options;
    resolveTestingOptions(moduleOptions); // bad options fail here, as `ZkLockModule.forRoot`'s fail at start-up
    return testingModule(isGlobal ?? false, [
      { provide: ZK_LOCK_MODULE_OPTIONS, useValue: moduleOptions },
      ...zkLockExceptionFilterProviders(exceptionFilter),
    ]);
  }

  /**
   * In place of `zkLockModule`, what `ZkLockModule.forRoot(...)` or `forRootAsync(...)` returned:
   * the same options (for `forRootAsync`, the same factory and imports, run when the test module
   * compiles), the same `exceptionFilter` and `isGlobal`; its connection options are ignored as in `forRoot`.
   */
  static replacing(zkLockModule: DynamicModule): DynamicModule {
    if (zkLockModule?.module !== ZkLockModule) {
      throw new InvalidOptionsError('replacing', `expected what ZkLockModule.forRoot() or forRootAsync() returned, got ${describeValue(zkLockModule?.module ?? zkLockModule)}`);
    }
    // Its providers are the options (forRootAsync: their factory, or class) and the filter, as built by ZkLockConfigurableModule.
    return testingModule(zkLockModule.global ?? false, [...(zkLockModule.providers ?? [])], zkLockModule.imports ?? []);
  }

  /** After locks and elections were given up (`beforeApplicationShutdown`), as `ZkLockModule` does. */
  onApplicationShutdown(): void {
    this.session.close();
    this.zk.close();
    this.events.complete(); // after the session's `closed` state
  }
}

/** `ZkLockModule`'s options and its extras: one options object serves both. */
const TESTING_KEYS = [...ZK_LOCK_OPTION_KEYS, ...Object.keys({ isGlobal: 1, exceptionFilter: 1 } satisfies Record<keyof ZkLockModuleExtras, 1>)];

/** The module around `ZK_LOCK_MODULE_OPTIONS` (given by `optionProviders`, as in `ZkLockModule`), resolved for the simulated server. */
function testingModule(global: boolean, optionProviders: Provider[], imports: NonNullable<DynamicModule['imports']> = []): DynamicModule {
  return {
    module: ZkLockTestingModule,
    global,
    imports: [DiscoveryModule, ...imports],
    providers: [
      ...optionProviders,
      { provide: ZK_LOCK_OPTIONS, useFactory: resolveTestingOptions, inject: [ZK_LOCK_MODULE_OPTIONS] },
      ...zkLockEventProviders,
      { provide: TestingEnsemble, useFactory: (options: ResolvedZkLockOptions) => TestingEnsemble.start(options), inject: [ZK_LOCK_OPTIONS] },
      {
        provide: ZkSession,
        useFactory: (zk: TestingEnsemble, options: ResolvedZkLockOptions, events: ZkLockEventHub) => zk.connect(options, events),
        inject: [TestingEnsemble, ZK_LOCK_OPTIONS, ZkLockEventHub],
      },
      { provide: StandIns, useFactory: (zk: TestingEnsemble, options: ResolvedZkLockOptions) => new StandIns(zk, options), inject: [TestingEnsemble, ZK_LOCK_OPTIONS] },
      {
        provide: ZK_LOCK_BACKEND,
        useFactory: (session: ZkSession, standIns: StandIns, options: ResolvedZkLockOptions, events: ZkLockEventHub) =>
          testingBackend(zooKeeperBackend(session, options, events), standIns),
        inject: [ZkSession, StandIns, ZK_LOCK_OPTIONS, ZkLockEventHub],
      },
      {
        provide: ZkLockTesting,
        useFactory: (zk: TestingEnsemble, standIns: StandIns, session: ZkSession, leader: LeaderService, backend: ZkLockBackend, events: ZkLockEventHub, options: ResolvedZkLockOptions) =>
          new ZkLockTesting(zk, standIns, session, leader, backend.locks, events, options),
        inject: [TestingEnsemble, StandIns, ZkSession, LeaderService, ZK_LOCK_BACKEND, ZkLockEventHub, ZK_LOCK_OPTIONS],
      },
      ...ZK_LOCK_SERVICES,
    ],
    exports: [ZK_LOCK_OPTIONS, ZkSession, ...ZK_LOCK_EXPORTED_SERVICES, ZkLockEvents, ZkLockTesting],
  };
}

/** `ZkLockModule`'s own validation and defaults, so that bad options fail the same way (`InvalidOptionsError`). */
function resolveTestingOptions(options: Partial<ZkLockModuleOptions>): ResolvedZkLockOptions {
  if (options === null || typeof options !== 'object') throw new InvalidOptionsError('options', 'expected an object');
  refuseUnknownKeys(options, ZK_LOCK_OPTION_KEYS);
  const { identity, election, drainTimeoutMs, maxRecordBytes, partitions } = options;
  const resolved = resolveZkLockOptions({ connect: TestingEnsemble.connectString, identity, election, drainTimeoutMs, maxRecordBytes, partitions });
  // A unit test's hand-overs are not timed: no rehearsal (and no second ensemble in the test's process).
  return { ...resolved, election: { ...resolved.election, warmUpHandOver: false } };
}
