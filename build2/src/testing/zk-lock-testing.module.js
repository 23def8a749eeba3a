var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var ZkLockTestingModule_1;
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { zkLockExceptionFilterProvider } from '../filters/zk-lock-exception.filter.js';
import { ZkLockEventHub, ZkLockEvents } from '../observability/zk-lock-events.js';
import { LeaderRecoveryExplorer } from '../services/leader-recovery.explorer.js';
import { ZkLockMetadataAccessor } from '../services/zk-lock-metadata.accessor.js';
import { LeaderService } from '../services/leader.service.js';
import { LockService } from '../services/lock.service.js';
import { ZK_LOCK_BACKEND, zooKeeperBackend } from '../services/zk-lock-backend.js';
import { zkLockEventProviders } from '../services/zk-lock-events.provider.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { refuseUnknownKeys } from '../errors/known-keys.js';
import { resolveZkLockOptions, ZK_LOCK_OPTION_KEYS } from '../zk-lock.options-validator.js';
import { ZkSession } from '../zookeeper/supervised-session.js';
import { StandIns } from './stand-ins.js';
import { testingBackend } from './testing-election.js';
import { TestingEnsemble } from './testing-ensemble.js';
import { ZkLockTesting } from './zk-lock-testing.js';
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
let ZkLockTestingModule = ZkLockTestingModule_1 = class ZkLockTestingModule {
    constructor(zk, session, events) {
        this.zk = zk;
        this.session = session;
        this.events = events;
    }
    static forRoot(options = {}) {
        const resolved = resolveTestingOptions(options);
        return {
            module: ZkLockTestingModule_1,
            global: options.isGlobal ?? false,
            imports: [DiscoveryModule],
            providers: [
                { provide: ZK_LOCK_OPTIONS, useValue: resolved },
                ...zkLockEventProviders,
                { provide: TestingEnsemble, useFactory: () => TestingEnsemble.start(resolved) },
                { provide: ZkSession, useFactory: (zk, events) => zk.connect(resolved, events), inject: [TestingEnsemble, ZkLockEventHub] },
                { provide: StandIns, useFactory: (zk) => new StandIns(zk, resolved), inject: [TestingEnsemble] },
                {
                    provide: ZK_LOCK_BACKEND,
                    useFactory: (session, standIns, events) => testingBackend(zooKeeperBackend(session, resolved, events), standIns),
                    inject: [ZkSession, StandIns, ZkLockEventHub],
                },
                {
                    provide: ZkLockTesting,
                    useFactory: (zk, standIns, session, leader, backend, events) => new ZkLockTesting(zk, standIns, session, leader, backend.locks, events, resolved),
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
    onApplicationShutdown() {
        this.session.close();
        this.zk.close();
        this.events.complete(); // after the session's `closed` state
    }
};
ZkLockTestingModule = ZkLockTestingModule_1 = __decorate([
    Module({}),
    __metadata("design:paramtypes", [TestingEnsemble,
        ZkSession,
        ZkLockEventHub])
], ZkLockTestingModule);
export { ZkLockTestingModule };
/** Its own keys; `ZkLockModule`'s are taken too (and ignored), so that one options object can serve both. */
const TESTING_KEYS = [
    ...new Set([
        ...Object.keys({ isGlobal: 1, identity: 1, election: 1, drainTimeoutMs: 1, maxRecordBytes: 1, exceptionFilter: 1 }),
        ...ZK_LOCK_OPTION_KEYS,
    ]),
];
/** `ZkLockModule`'s own validation and defaults, so that bad options fail the same way (`InvalidOptionsError`). */
function resolveTestingOptions(options) {
    if (options === null || typeof options !== 'object')
        throw new InvalidOptionsError('options', 'expected an object');
    refuseUnknownKeys(options, TESTING_KEYS);
    const { identity, election, drainTimeoutMs, maxRecordBytes } = options;
    const resolved = resolveZkLockOptions({ connect: TestingEnsemble.connectString, identity, election, drainTimeoutMs, maxRecordBytes });
    // A unit test's hand-overs are not timed: no rehearsal (and no second ensemble in the test's process).
    return { ...resolved, election: { ...resolved.election, warmUpHandOver: false } };
}
//# sourceMappingURL=zk-lock-testing.module.js.map