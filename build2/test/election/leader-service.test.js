var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
/**
 * The Nest surface of leader election: LeaderService in real Nest apps (two apps, two sessions, in
 * one process, on the shared server), @LeaderOnly, @OnLeaderRecovery discovery, lifecycle, option
 * validation and decorator misuse.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { afterEach, describe, it } from 'node:test';
import { LeaderOnly } from '../../src/decorators/leader-only.decorator.js';
import { OnLeaderRecovery } from '../../src/decorators/on-leader-recovery.decorator.js';
import { DecoratorMisuseError } from '../../src/errors/decorator-misuse.error.js';
import { InvalidLockNameError } from '../../src/errors/invalid-lock-name.error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { sharedConnect, testRoot } from './election-cluster.js';
import { Recorder } from './election-kit.js';
let Jobs = class Jobs {
    constructor() {
        this.recovered = [];
    }
    report(value) {
        return value * 2;
    }
    async crashHalfWay() {
        throw new Error('crashed mid-report');
    }
    repairReports(interrupted) {
        this.recovered.push(interrupted);
    }
};
__decorate([
    LeaderOnly(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number]),
    __metadata("design:returntype", Number)
], Jobs.prototype, "report", null);
__decorate([
    LeaderOnly('reports'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Jobs.prototype, "crashHalfWay", null);
__decorate([
    OnLeaderRecovery('reports'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], Jobs.prototype, "repairReports", null);
Jobs = __decorate([
    Injectable()
], Jobs);
const apps = [];
afterEach(async () => {
    for (const app of apps.splice(0))
        await withTimeout(app.close(), 10_000, 'app.close()');
});
async function startApp(options, providers = [Jobs]) {
    let AppModule = class AppModule {
    };
    AppModule = __decorate([
        Module({})
    ], AppModule);
    const module = {
        module: AppModule,
        imports: [ZkLockModule.forRoot({ connect: sharedConnect(), sessionTimeoutMs: 2000, drainTimeoutMs: 500, ...options })],
        providers,
    };
    const app = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
    apps.push(app);
    return app;
}
describe('LeaderService', () => {
    it('joins the default and named elections on bootstrap, runs @LeaderOnly on the leader only, and hands over on shutdown', async () => {
        const root = testRoot();
        const first = await startApp({ root, identity: 'first' });
        const firstLeader = first.get(LeaderService);
        await new Recorder(firstLeader.isLeader$).next(true);
        await new Recorder(firstLeader.election('reports').isLeader$).next(true); // named by @LeaderOnly('reports'), joined at bootstrap
        const second = await startApp({ root, identity: 'second' });
        const secondLeader = second.get(LeaderService);
        await waitFor(async () => (await firstLeader.participants()).length === 2, { timeoutMs: 5000 });
        assert.deepEqual(await secondLeader.participants(), ['first', 'second']);
        assert.deepEqual(await secondLeader.election('reports').participants(), ['first', 'second']);
        const leaders = new Recorder(secondLeader.leader$);
        await leaders.next('first');
        assert.equal(await first.get(Jobs).report(21), 42, 'runs on the leader');
        assert.equal(await second.get(Jobs).report(21), undefined, 'does not run on a follower');
        await assert.rejects(first.get(Jobs).crashHalfWay(), /crashed mid-report/);
        const completed = new Recorder(firstLeader.isLeader$);
        const secondLeading = new Recorder(secondLeader.isLeader$);
        const reportsLeading = new Recorder(secondLeader.election('reports').isLeader$);
        apps.splice(apps.indexOf(first), 1);
        await first.close();
        assert.equal(completed.completed, true, 'isLeader$ completes on shutdown');
        await secondLeading.next(true, 0, 5000);
        await reportsLeading.next(true, 0, 5000);
        await leaders.next('second');
        assert.equal(second.get(Jobs).recovered.length, 1, '@OnLeaderRecovery("reports") ran in the new leader');
        assert.equal(second.get(Jobs).recovered[0].holder, 'first');
        assert.equal(await second.get(Jobs).report(1), 2);
    });
    it('with joinOnBootstrap false, joins only on join()', async () => {
        const root = testRoot();
        const app = await startApp({ root, identity: 'lazy', election: { joinOnBootstrap: false, name: 'jobs' } });
        const leader = app.get(LeaderService);
        assert.equal(leader.election().name, 'jobs');
        assert.equal(leader.election().isParticipating, false);
        assert.deepEqual(await leader.participants(), []);
        leader.join();
        await new Recorder(leader.isLeader$).next(true);
        assert.deepEqual(await leader.participants(), ['lazy']);
        assert.equal(leader.election('reports').isParticipating, false, 'named elections wait for join() too');
    });
    it('without the election option, a lock-only application joins no election; asking for one joins it', async () => {
        const root = testRoot();
        let LocksOnly = class LocksOnly {
        };
        LocksOnly = __decorate([
            Injectable()
        ], LocksOnly);
        const app = await startApp({ root, identity: 'locks-only' }, [LocksOnly]);
        const leader = app.get(LeaderService);
        const observer = await startApp({ root, identity: 'observer', election: { joinOnBootstrap: false } }, [LocksOnly]);
        assert.deepEqual(await observer.get(LeaderService).participants(), [], 'no node in the default election');
        leader.isLeader$.subscribe(); // asking for the default election after bootstrap joins it
        await new Recorder(leader.isLeader$).next(true);
        assert.deepEqual(await observer.get(LeaderService).participants(), ['locks-only']);
    });
    it('gives @LeaderOnly methods their section through current(): token and checkpoint', async () => {
        const root = testRoot();
        let Reporter = class Reporter {
            constructor(leader) {
                this.leader = leader;
            }
            async report() {
                const section = this.leader.current();
                await section?.checkpoint({ step: 1 });
                return section?.token;
            }
        };
        __decorate([
            LeaderOnly(),
            __metadata("design:type", Function),
            __metadata("design:paramtypes", []),
            __metadata("design:returntype", Promise)
        ], Reporter.prototype, "report", null);
        Reporter = __decorate([
            Injectable(),
            __metadata("design:paramtypes", [LeaderService])
        ], Reporter);
        const app = await startApp({ root, identity: 'reporter', election: {} }, [Reporter]);
        const leader = app.get(LeaderService);
        await new Recorder(leader.isLeader$).next(true);
        assert.equal(leader.current(), undefined, 'no section outside a leader call');
        const token = await app.get(Reporter).report();
        assert.equal(typeof token, 'bigint');
        assert.equal(token, leader.election().token);
    });
    it('fails start-up on a second recovery handler for one election', async () => {
        let OtherRepair = class OtherRepair {
            repair() { }
        };
        __decorate([
            OnLeaderRecovery('reports'),
            __metadata("design:type", Function),
            __metadata("design:paramtypes", []),
            __metadata("design:returntype", void 0)
        ], OtherRepair.prototype, "repair", null);
        OtherRepair = __decorate([
            Injectable()
        ], OtherRepair);
        // A testing module, so that the session opened before the failure can still be closed.
        const moduleRef = await Test.createTestingModule({
            imports: [ZkLockModule.forRoot({ connect: sharedConnect(), root: testRoot(), sessionTimeoutMs: 2000 })],
            providers: [Jobs, OtherRepair],
        })
            .setLogger({ log() { }, error() { }, warn() { } })
            .compile();
        try {
            await assert.rejects(moduleRef.init(), (error) => {
                assert.ok(error instanceof DecoratorMisuseError, String(error));
                assert.match(error.message, /OtherRepair\.repair|Jobs\.repairReports/);
                assert.match(error.message, /election "reports" already has a recovery handler/);
                return true;
            });
        }
        finally {
            // Nest 11's close() rethrows the failed init and runs no shutdown hook: close the session by hand then.
            await moduleRef.close().catch(() => moduleRef.get(ZkSession).close());
        }
    });
    it('rejects bad election options with InvalidOptionsError naming the field', async () => {
        const cases = [
            [5, 'election'],
            [{ name: 'a/b' }, 'election.name'],
            [{ name: '' }, 'election.name'],
            [{ joinOnBootstrap: 'yes' }, 'election.joinOnBootstrap'],
            [{ suspendPolicy: 'later' }, 'election.suspendPolicy'],
        ];
        for (const [election, field] of cases) {
            assert.throws(() => resolveZkLockOptions({ connect: '127.0.0.1:2181', election }), (error) => error instanceof InvalidOptionsError && error.field === field, `${JSON.stringify(election)} -> ${field}`);
        }
        assert.deepEqual(resolveZkLockOptions({ connect: '127.0.0.1:2181' }).election, { name: 'default', joinOnBootstrap: true, suspendPolicy: 'immediate', warmUpHandOver: true });
        await assert.rejects(startApp({ root: testRoot(), election: { suspendPolicy: 'never' } }), InvalidOptionsError);
    });
    it('throws DecoratorMisuseError when the decorators are misused', async () => {
        const decorate = (decorator, target, descriptor) => decorator(target, 'member', descriptor);
        class Target {
        }
        for (const decorator of [LeaderOnly(), OnLeaderRecovery()]) {
            assert.throws(() => decorate(decorator, Target, { value: () => undefined }), DecoratorMisuseError, 'static method');
            assert.throws(() => decorate(decorator, Target.prototype, { get: () => 1 }), DecoratorMisuseError, 'accessor');
            assert.throws(() => decorate(decorator, Target.prototype, undefined), DecoratorMisuseError, 'property');
        }
        assert.throws(() => LeaderOnly('a/b'), InvalidLockNameError);
        assert.throws(() => OnLeaderRecovery('..'), InvalidLockNameError);
        // Called on an instance Nest did not build: refuses instead of running without knowing who leads.
        const detached = new Jobs();
        await assert.rejects(detached.report(1), DecoratorMisuseError);
    });
});
//# sourceMappingURL=leader-service.test.js.map