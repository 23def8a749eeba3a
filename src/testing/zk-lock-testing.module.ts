import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { ZkLockEventHub, ZkLockEvents } from '../observability/zk-lock-events.js';
import { LeaderRecoveryExplorer } from '../services/leader-recovery.explorer.js';
import { LeaderService } from '../services/leader.service.js';
import { LockService } from '../services/lock.service.js';
import { ZK_LOCK_BACKEND } from '../services/zk-lock-backend.js';
import { zkLockEventProviders } from '../services/zk-lock-events.provider.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { resolveZkLockOptions } from '../zk-lock.options-validator.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import { MemoryBackend } from './memory-backend.js';
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
}

/**
 * `ZkLockModule` without ZooKeeper, for unit tests of the application's own providers: the real
 * `LockService` and `LeaderService` (so `@WithLock`, `@LeaderOnly`, `@OnLeaderRecovery` and
 * constructor injection work unchanged) on in-memory locks and elections, plus `ZkLockTesting`
 * to drive leadership, interruptions and lost locks, and `ZkLockEvents`. It opens no connection
 * and provides no `ZkSession`.
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
  constructor(private readonly events: ZkLockEventHub) {}

  static forRoot(options: ZkLockTestingOptions = {}): DynamicModule {
    const resolved = resolveTestingOptions(options);
    return {
      module: ZkLockTestingModule,
      global: options.isGlobal ?? false,
      imports: [DiscoveryModule],
      providers: [
        { provide: ZK_LOCK_OPTIONS, useValue: resolved },
        ...zkLockEventProviders,
        { provide: MemoryBackend, useFactory: (events: ZkLockEventHub) => new MemoryBackend(resolved, events), inject: [ZkLockEventHub] },
        { provide: ZK_LOCK_BACKEND, useExisting: MemoryBackend },
        { provide: ZkLockTesting, useFactory: (backend: MemoryBackend) => new ZkLockTesting(backend, resolved.election.name), inject: [MemoryBackend] },
        LockService,
        LeaderService,
        LeaderRecoveryExplorer,
      ],
      exports: [ZK_LOCK_OPTIONS, LockService, LeaderService, ZkLockEvents, ZkLockTesting],
    };
  }

  /** After locks and elections were given up (`beforeApplicationShutdown`). */
  onApplicationShutdown(): void {
    this.events.complete();
  }
}

/** `ZkLockModule`'s own validation and defaults, so that bad options fail the same way (`InvalidOptionsError`). */
function resolveTestingOptions(options: ZkLockTestingOptions): ResolvedZkLockOptions {
  if (options === null || typeof options !== 'object') throw new InvalidOptionsError('options', 'expected an object');
  const { identity, election, drainTimeoutMs, maxRecordBytes } = options;
  // The address only satisfies the validator: nothing here ever connects.
  const resolved = resolveZkLockOptions({ connect: 'in-memory:2181', identity, election, drainTimeoutMs, maxRecordBytes });
  return { ...resolved, connect: 'in-memory (nestjs-zk-lock/testing)' };
}
