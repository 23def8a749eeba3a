var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
/**
 * `ZkLockExceptionFilter` on HTTP, Express and Fastify alike, registered by the module's
 * `exceptionFilter` option: real lock contention against the shared ZooKeeper server gives 409
 * (told not to wait) and 503 with `Retry-After` (waited in vain, or ZooKeeper unreachable for a try-once), a per-request lock name that
 * cannot exist gives 400, the other errors their status from `httpAnswerOf`; every body carries the
 * error's stable code, and errors that are not the library's keep Nest's own answer.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Controller, Get, Module, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import { CorruptStateError } from '../../src/errors/corrupt-state.error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { LeadershipLostError } from '../../src/errors/leadership-lost.error.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { ZooKeeperUnreachableError } from '../../src/errors/zookeeper-unreachable.error.js';
import { zkLockExceptionFilterProvider } from '../../src/filters/zk-lock-exception.filter.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkLockTestingModule } from '../../src/testing/index.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { Test } from '@nestjs/testing';
import { sharedConnect, testRoot } from '../lock/lock-test-kit.js';
let ReportsController = class ReportsController {
    now(id) {
        return { id };
    }
    soon(id) {
        return { id };
    }
    byName(name) {
        return { name };
    }
    lostLeadership() {
        throw new LeadershipLostError('/zk-lock/elections/default', 'the session was suspended');
    }
    connectionLoss() {
        throw new ZooKeeperError(-4, 'getChildren', '/zk-lock/locks/report-1');
    }
    unreachable() {
        throw new ZooKeeperUnreachableError('/zk-lock/locks/report-1', 'the session is suspended');
    }
    corrupt() {
        throw new CorruptStateError('/zk-lock/locks/report-1/ready', 'not JSON');
    }
    notOurs() {
        throw new Error('a bug of the application');
    }
};
__decorate([
    Get('now/:id'),
    WithLock((id) => `report-${id}`, { onBusy: 'throw' }),
    __param(0, Param('id')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Object)
], ReportsController.prototype, "now", null);
__decorate([
    Get('soon/:id'),
    WithLock((id) => `report-${id}`, { waitMs: 50 }),
    __param(0, Param('id')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Object)
], ReportsController.prototype, "soon", null);
__decorate([
    Get('by-name/:name'),
    WithLock((name) => name),
    __param(0, Param('name')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Object)
], ReportsController.prototype, "byName", null);
__decorate([
    Get('lost-leadership'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ReportsController.prototype, "lostLeadership", null);
__decorate([
    Get('connection-loss'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ReportsController.prototype, "connectionLoss", null);
__decorate([
    Get('unreachable'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ReportsController.prototype, "unreachable", null);
__decorate([
    Get('corrupt'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ReportsController.prototype, "corrupt", null);
__decorate([
    Get('not-ours'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ReportsController.prototype, "notOurs", null);
ReportsController = __decorate([
    Controller()
], ReportsController);
for (const platform of ['express', 'fastify']) {
    describe(`ZkLockExceptionFilter on HTTP (${platform})`, () => {
        let app;
        let base;
        before(async () => {
            let HttpModule = class HttpModule {
            };
            HttpModule = __decorate([
                Module({
                    imports: [ZkLockModule.forRoot({ connect: sharedConnect(), root: testRoot(), sessionTimeoutMs: 4000, exceptionFilter: { retryAfterSeconds: 2 } })],
                    controllers: [ReportsController],
                })
            ], HttpModule);
            app = await NestFactory.create(HttpModule, platform === 'express' ? new ExpressAdapter() : new FastifyAdapter(), { logger: false });
            await app.listen(0, '127.0.0.1');
            base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
        });
        after(() => app?.close());
        async function get(path) {
            const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) });
            return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) };
        }
        it('answers 200 when the lock is free', async () => {
            assert.deepEqual(await get('/now/1'), { status: 200, retryAfter: null, body: { id: '1' } });
        });
        it('answers 409 when the lock is held and the call must not wait, 503 with Retry-After when the wait ran out', async () => {
            let release;
            const held = new Promise((resolve) => (release = resolve));
            let holding;
            const acquired = new Promise((resolve) => (holding = resolve));
            // Held from the test's own call chain: the request's chain is another one, so it has to wait.
            const holder = app.get(LockService).withLock('report-2', async () => {
                holding();
                await held;
            });
            await acquired;
            try {
                const busy = await get('/now/2');
                assert.equal(busy.status, 409);
                assert.equal(busy.retryAfter, null);
                assert.equal(busy.body.code, 'ZK_LOCK_BUSY');
                assert.equal(busy.body.error, 'Conflict');
                assert.match(String(busy.body.message), /report-2/);
                const late = await get('/soon/2');
                assert.deepEqual({ status: late.status, retryAfter: late.retryAfter, code: late.body.code }, { status: 503, retryAfter: '2', code: 'ZK_LOCK_TIMEOUT' });
            }
            finally {
                release();
                await holder;
            }
            assert.equal((await get('/now/2')).status, 200, 'free again');
        });
        it('answers 400 to a lock name that cannot exist', async () => {
            const answer = await get('/by-name/a%01b'); // a control character, which ZooKeeper refuses in paths
            assert.deepEqual({ status: answer.status, code: answer.body.code }, { status: 400, code: 'ZK_INVALID_LOCK_NAME' });
        });
        it('answers 503 to lost leadership and to a lost connection, 500 with the code but not the message to the rest', async () => {
            const lost = await get('/lost-leadership');
            assert.deepEqual({ status: lost.status, retryAfter: lost.retryAfter, code: lost.body.code }, { status: 503, retryAfter: '2', code: 'ZK_LEADERSHIP_LOST' });
            const loss = await get('/connection-loss');
            assert.deepEqual({ status: loss.status, code: loss.body.code }, { status: 503, code: 'ZK_CONNECTIONLOSS' });
            const unreachable = await get('/unreachable');
            assert.deepEqual({ status: unreachable.status, retryAfter: unreachable.retryAfter, code: unreachable.body.code }, { status: 503, retryAfter: '2', code: 'ZK_UNREACHABLE' });
            const corrupt = await get('/corrupt');
            assert.deepEqual(corrupt, {
                status: 500,
                retryAfter: null,
                body: { statusCode: 500, error: 'Internal Server Error', code: 'ZK_CORRUPT_STATE', message: 'Internal server error' },
            });
        });
        it("leaves errors that are not the library's to Nest", async () => {
            assert.deepEqual(await get('/not-ours'), { status: 500, retryAfter: null, body: { statusCode: 500, message: 'Internal server error' } });
        });
    });
}
describe('ZkLockExceptionFilter options', () => {
    it('refuses what is neither true, false nor its options, and a Retry-After that is not whole seconds', () => {
        assert.throws(() => zkLockExceptionFilterProvider('yes'), InvalidOptionsError);
        assert.throws(() => ZkLockModule.forRoot({ connect: '127.0.0.1:2181', exceptionFilter: 'yes' }), /exceptionFilter/);
        const provider = zkLockExceptionFilterProvider({ retryAfterSeconds: 1.5 });
        assert.throws(() => provider.useFactory({ httpAdapter: undefined }), /exceptionFilter\.retryAfterSeconds/);
    });
});
describe('ZkLockExceptionFilter from ZkLockTestingModule (an e2e test without a server)', () => {
    it('answers as in production', async () => {
        const moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot({ exceptionFilter: true })], controllers: [ReportsController] }).compile();
        const app = moduleRef.createNestApplication({ logger: false });
        await app.listen(0, '127.0.0.1');
        try {
            const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
            const answer = await fetch(`${base}/lost-leadership`, { signal: AbortSignal.timeout(10_000) });
            assert.deepEqual({ status: answer.status, retryAfter: answer.headers.get('retry-after'), code: (await answer.json()).code }, { status: 503, retryAfter: '1', code: 'ZK_LEADERSHIP_LOST' });
        }
        finally {
            await app.close();
        }
        assert.throws(() => ZkLockTestingModule.forRoot({ exceptionFilter: 'yes' }), InvalidOptionsError);
    });
});
//# sourceMappingURL=http-exception-filter.test.js.map