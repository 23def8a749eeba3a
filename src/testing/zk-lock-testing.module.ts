import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { zkLockExceptionFilterProvider, type ZkLockExceptionFilterOptions } from '../filters/zk-lock-exception.filter.js';
import { ZkLockEventHub, ZkLockEvents } from '../observability/zk-lock-events.js';
import { LeaderRecoveryExplorer } from '../services/leader-recovery.explorer.js';
import { ZkLockMetadataAccessor } from '../services/zk-lock-metadata.accessor.js';
import { LeaderService } from '../services/leader.service.js';
import { LockService } from '../services/lock.service.js';
import { ZK_LOCK_BACKEND, zooKeeperBackend, type ZkLockBackend } from '../services/zk-lock-backend.js';
import { zkLockEventProviders } from '../services/zk-lock-events.provider.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { refuseUnknownKeys } from '../errors/known-keys.js';
import { resolveZkLockOptions, ZK_LOCK_OPTION_KEYS } from '../zk-lock.options-validator.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import { ZkSession } from '../zookeeper/supervised-session.js';
import { StandIns } from './stand-ins.js';
import { testingBackend } from './testing-election.js';
import { TestingEnsemble } from './testing-ensemble.js';
import { ZkLockTesting } from './zk-lock-testing.js';

/** Options of `ZkLockTestingModule.forRoot`. */
export interface ZkLockTestingOptions {
  /** Register the module globally. Default false. */
  isGlobal?: boolean;
  /** This process's identity (`leader$`, `participants()`, recovery records). Default `<hostname>:<pid>`. */
  identity?: string;
  /** The default election's name, as in `ZkLockModule`'s `election` option. Default `default`. */
  election?: { name?: string };
  /** How long `resign()` and shutdown wait for running locked calls and leader sections. Default 10000. */
  drainTimeoutMs?: number;
  /**
   * Largest ready record (bytes, a checkpoint with its envelope), as `ZkLockModule`'s option: a
   * larger `checkpoint()` fails with `RecordTooLargeError` here as it would in production. Default 524288.
   */
  maxRecordBytes?: number;
  /** As `ZkLockModule`'s option: registers `ZkLockExceptionFilter`, so that e2e tests see the answers production gives. Default false. */
  exceptionFilter?: boolean | ZkLockExceptionFilterOptions;
}

/**
 * `ZkLockModule` on a simulated ZooKeeper, for unit tests of the application's own providers: the
 * production `ZkSession`, `LockService` and `LeaderService` (so `@WithLock`, `@LeaderOnly`,
 * `@OnLeaderRecovery` and constructor injection work unchanged) run on a simulated server inside
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
 */
@Module({})
export class ZkLockTestingModule implements OnApplicationShutdown {
  constructor(
    private readonly zk: TestingEnsemble,
    private readonly session: ZkSession,
    private readonly events: ZkLockEventHub,
  ) {}

  static forRoot(options: ZkLockTestingOptions = {}): DynamicModule {
    const resolved = resolveTestingOptions(options);
    return {
      module: ZkLockTestingModule,
      global: options.isGlobal ?? false,
      imports: [DiscoveryModule],
      providers: [
        { provide: ZK_LOCK_OPTIONS, useValue: resolved },
        ...zkLockEventProviders,
        { provide: TestingEnsemble, useFactory: () => TestingEnsemble.start(resolved) },
        { provide: ZkSession, useFactory: (zk: TestingEnsemble, events: ZkLockEventHub) => zk.connect(resolved, events), inject: [TestingEnsemble, ZkLockEventHub] },
        { provide: StandIns, useFactory: (zk: TestingEnsemble) => new StandIns(zk, resolved), inject: [TestingEnsemble] },
        {
          provide: ZK_LOCK_BACKEND,
          useFactory: (session: ZkSession, standIns: StandIns, events: ZkLockEventHub) => testingBackend(zooKeeperBackend(session, resolved, events), standIns),
          inject: [ZkSession, StandIns, ZkLockEventHub],
        },
        {
          provide: ZkLockTesting,
          useFactory: (zk: TestingEnsemble, standIns: StandIns, session: ZkSession, leader: LeaderService, backend: ZkLockBackend, events: ZkLockEventHub) =>
            new ZkLockTesting(zk, standIns, session, leader, backend.locks, events, resolved),
          inject: [TestingEnsemble, StandIns, ZkSession, LeaderService, ZK_LOCK_BACKEND, ZkLockEventHub],
        },
        LockService,
        LeaderService,
        ZkLockMetadataAccessor,
        LeaderRecoveryExplorer,
        ...(options.exceptionFilter === undefined || options.exceptionFilter === false ? [] : [zkLockExceptionFilterProvider(options.exceptionFilter)]),
      ],
      exports: [ZK_LOCK_OPTIONS, ZkSession, LockService, LeaderService, ZkLockEvents, ZkLockTesting],
    };
  }

  /** After locks and elections were given up (`beforeApplicationShutdown`), as `ZkLockModule` does. */
  onApplicationShutdown(): void {
    this.session.close();
    this.zk.close();
    this.events.complete(); // after the session's `closed` state
  }
}

/** Its own keys; `ZkLockModule`'s are taken too (and ignored), so that one options object can serve both. */
const TESTING_KEYS = [
  ...new Set([
    ...Object.keys({ isGlobal: 1, identity: 1, election: 1, drainTimeoutMs: 1, maxRecordBytes: 1, exceptionFilter: 1 } satisfies Record<keyof ZkLockTestingOptions, 1>),
    ...ZK_LOCK_OPTION_KEYS,
  ]),
];

/** `ZkLockModule`'s own validation and defaults, so that bad options fail the same way (`InvalidOptionsError`). */
function resolveTestingOptions(options: ZkLockTestingOptions): ResolvedZkLockOptions {
  if (options === null || typeof options !== 'object') throw new InvalidOptionsError('options', 'expected an object');
  refuseUnknownKeys(options, TESTING_KEYS);
  const { identity, election, drainTimeoutMs, maxRecordBytes } = options;
  const resolved = resolveZkLockOptions({ connect: TestingEnsemble.connectString, identity, election, drainTimeoutMs, maxRecordBytes });
  // A unit test's hand-overs are not timed: no rehearsal (and no second ensemble in the test's process).
  return { ...resolved, election: { ...resolved.election, warmUpHandOver: false } };
}
