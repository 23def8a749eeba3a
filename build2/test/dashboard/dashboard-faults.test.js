var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
/**
 * A reading of the dashboard that fails (issue 20: it keeps working through connection loss).
 * The watch on a lock's directory fires, the name is read again, and that reading's listing
 * fails after the new watch was set, as when the connection drops between the two: the change
 * that fired the watch must still reach the page, from a reading tried again. The dashboard's
 * session is wrapped (DASHBOARD_SESSION) in a FaultySession over the real one, on the shared server.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Module } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { DASHBOARD_SESSION } from '../../src/dashboard/dashboard.constants.js';
import { ZkLockDashboardModule } from '../../src/dashboard/index.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { connectionLoss, FaultySession } from '../support/faulty-session.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { SseReader } from './sse-reader.js';
describe('the dashboard when a reading fails', () => {
    it('reads the name again: the change whose reading failed still reaches the page', async () => {
        const root = testRoot();
        let faulty;
        let AppModule = class AppModule {
        };
        AppModule = __decorate([
            Module({ imports: [ZkLockModule.forRoot({ connect: sharedConnect(), root, sessionTimeoutMs: 4000, isGlobal: true }), ZkLockDashboardModule.forRoot({ public: true })] })
        ], AppModule);
        const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
            .overrideProvider(DASHBOARD_SESSION)
            .useFactory({ factory: (session) => (faulty = new FaultySession(session)), inject: [ZkSession] })
            .compile();
        const app = moduleRef.createNestApplication(new ExpressAdapter(), { logger: false });
        await app.listen(0, '127.0.0.1');
        const other = await openSession(sharedConnect());
        const stream = await SseReader.open(`${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/zk-lock/api/stream`);
        try {
            const held = await new LockClient(other, { root, identity: 'elsewhere' }).acquire('invoice');
            const holderOf = (m) => m.data.locks.find((l) => l.name === 'invoice')?.holder;
            await stream.next((m) => m.event === 'view' && holderOf(m)?.identity === 'elsewhere', 10_000, 'the holder shown');
            // The next reading of the directory: its watch is set (listing 1), its listing fails (listing 2).
            const dir = `${root}/locks/invoice`;
            let listings = 0;
            faulty.after('getChildren', (request) => (request.path === dir && ++listings === 2 ? { ok: false, error: connectionLoss('getChildren', dir) } : undefined));
            await held.release();
            await stream.next((m) => m.event === 'view' && holderOf(m) === null, 10_000, 'the release, from the reading tried again');
            assert.ok(listings >= 3, `the directory was listed again after the failure (${listings} listings)`);
        }
        finally {
            stream.close();
            other.close();
            await app.close();
        }
    });
});
//# sourceMappingURL=dashboard-faults.test.js.map