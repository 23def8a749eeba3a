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
 * `ZkLockModule` in a real Nest application (`@nestjs/testing`) against the shared server:
 * `ZkSession` is injected by type (which needs emitDecoratorMetadata to work in this toolchain),
 * `forRootAsync` takes its options from an imported module, `isGlobal` makes the session visible
 * to modules that do not import it, and closing the application closes the session and leaves no
 * handle behind.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ZK_LOCK_OPTIONS } from '../../src/zk-lock.constants.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { withTimeout } from '../support/wait.js';
import { randomRoot, runFixture, sharedConnectString } from '../fixtures/session-helpers.js';
const silent = { log() { }, error() { }, warn() { } };
let SessionUser = class SessionUser {
    constructor(session) {
        this.session = session;
    }
};
SessionUser = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [ZkSession])
], SessionUser);
const ZK_CONFIG = Symbol('zk-config');
let ConfigModule = class ConfigModule {
};
ConfigModule = __decorate([
    Module({ providers: [{ provide: ZK_CONFIG, useFactory: () => ({ connect: sharedConnectString(), root: '/async-root' }) }], exports: [ZK_CONFIG] })
], ConfigModule);
let FeatureService = class FeatureService {
    constructor(session) {
        this.session = session;
    }
};
FeatureService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [ZkSession])
], FeatureService);
/** Does not import ZkLockModule: it can only see the session when that module is global. */
let FeatureModule = class FeatureModule {
};
FeatureModule = __decorate([
    Module({ providers: [FeatureService] })
], FeatureModule);
/** Resource types by count; the test runner's own are there before and after alike. */
function resourceCounts() {
    const counts = new Map();
    for (const type of process.getActiveResourcesInfo())
        counts.set(type, (counts.get(type) ?? 0) + 1);
    return counts;
}
async function start(metadata) {
    const app = await Test.createTestingModule(metadata).setLogger(silent).compile();
    await app.init();
    return app;
}
describe('ZkLockModule', () => {
    it('injects ZkSession by type, connected, and closes it with the application', async () => {
        assert.deepEqual(Reflect.getMetadata('design:paramtypes', SessionUser), [ZkSession], 'emitDecoratorMetadata is on');
        const before = resourceCounts();
        const root = randomRoot();
        const app = await start({
            imports: [ZkLockModule.forRoot({ connect: sharedConnectString(), root, sessionTimeoutMs: 4000 })],
            providers: [SessionUser],
        });
        const { session } = app.get(SessionUser);
        assert.ok(session instanceof ZkSession);
        assert.equal(session, app.get(ZkSession), 'one session per module instance');
        assert.equal(session.state, 'connected', 'start-up waited for the session');
        assert.equal(session.sessionTimeoutMs, 4000);
        assert.equal(app.get(ZK_LOCK_OPTIONS).root, root);
        await session.create(root, null, 'ephemeral');
        await app.close();
        assert.equal(session.state, 'closed');
        for (const [type, count] of resourceCounts())
            assert.ok(count <= (before.get(type) ?? 0), `leaked ${type} (${count} > ${before.get(type) ?? 0})`);
    });
    it('leaves no handle that keeps the process alive after close()', async () => {
        const child = runFixture('session-exit', ['nest-app', sharedConnectString(), randomRoot()]);
        try {
            const exit = await withTimeout(child.exited, 15_000, `the process did not exit by itself (lines: ${child.lines.join(' | ')})`);
            assert.equal(exit.code, 0, child.stderr());
            assert.deepEqual(child.lines.map((line) => JSON.parse(line)), [
                { event: 'started', state: 'connected' },
                { event: 'closed', state: 'closed' },
            ]);
        }
        finally {
            child.kill();
        }
    });
    it('forRootAsync takes its options from an injected provider of an imported module', async () => {
        const app = await start({
            imports: [
                ZkLockModule.forRootAsync({
                    imports: [ConfigModule],
                    inject: [ZK_CONFIG],
                    useFactory: (config) => ({ ...config, sessionTimeoutMs: 3000 }),
                }),
            ],
            providers: [SessionUser],
        });
        try {
            const { session } = app.get(SessionUser);
            assert.equal(session.state, 'connected');
            assert.equal(session.connectString, sharedConnectString());
            assert.equal(session.sessionTimeoutMs, 3000);
            assert.equal(app.get(ZK_LOCK_OPTIONS).root, '/async-root');
            assert.ok(await session.exists('/'));
        }
        finally {
            await app.close();
        }
        assert.equal(app.get(SessionUser).session.state, 'closed');
    });
    it('isGlobal: true makes ZkSession injectable in modules that do not import it', async () => {
        const app = await start({
            imports: [ZkLockModule.forRoot({ connect: sharedConnectString(), root: randomRoot(), isGlobal: true }), FeatureModule],
        });
        try {
            const { session } = app.get(FeatureService);
            assert.equal(session, app.get(ZkSession));
            assert.equal(session.state, 'connected');
        }
        finally {
            await app.close();
        }
        // The control: without isGlobal, FeatureModule cannot resolve it. (A dead address with a tiny
        // connect timeout, so that a session the failed start-up may have begun cannot outlive it.)
        await assert.rejects(Test.createTestingModule({ imports: [ZkLockModule.forRoot({ connect: '127.0.0.1:1', connectTimeoutMs: 50 }), FeatureModule] })
            .setLogger(silent)
            .compile(), (error) => error instanceof Error && error.constructor.name === 'UnknownDependenciesException' && /FeatureService.*ZkSession/s.test(error.message));
    });
});
//# sourceMappingURL=module.test.js.map