/**
 * Release and step-down requests on `ZkLockTestingModule`: the production recipes on the
 * simulated server, so unit tests of an application see what production does. A `withLock` call
 * that watches `releaseRequested` stops when another flow asks; a stand-in leader is asked (it does
 * not react: the test moves leadership with `setLeader`); the module's own leader steps down and,
 * alone behind nobody, leads again.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Test } from '@nestjs/testing';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { LeaderService, LockService, ReleaseRequestedError, ZK_LOCK_OPTIONS } from '../../src/index.js';
import { ZkLockTesting, ZkLockTestingModule } from '../../src/testing/index.js';
describe('ZkLockTestingModule: release and step-down requests', () => {
    let moduleRef;
    beforeEach(async () => {
        moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot({ drainTimeoutMs: 0 })] }).compile();
        await moduleRef.init();
    });
    afterEach(() => moduleRef.close());
    it('a locked call watching releaseRequested stops when another flow asks', async () => {
        const locks = moduleRef.get(LockService);
        let started;
        const holding = new Promise((resolve) => (started = resolve));
        const call = locks.withLock('import', async (lock) => {
            const requested = lock.releaseRequested;
            started();
            await once(requested, 'abort');
            return requested.reason;
        });
        await holding;
        const asked = await locks.requestRelease('import');
        assert.equal(asked.requested, true);
        assert.ok((await call) instanceof ReleaseRequestedError);
        assert.deepEqual(await locks.requestRelease('import'), { requested: false, dir: '/zk-lock/locks/import', reason: 'free' });
    });
    it('asks the stand-in leader, which does not react; the module\'s own leader steps down and leads again when alone', async () => {
        const leader = moduleRef.get(LeaderService);
        const testing = moduleRef.get(ZkLockTesting);
        await testing.setLeader(false); // a stand-in leads, this process queues behind it
        const standIn = await leader.requestStepDown();
        assert.ok(standIn.requested && standIn.identity !== moduleRef.get(ZK_LOCK_OPTIONS).identity, `asked the stand-in: ${JSON.stringify(standIn)}`);
        assert.equal((await leader.participants()).length, 2, 'the stand-in stays: nothing reacts for it');
        assert.equal(leader.isLeader, false);
        await testing.setLeader(true);
        const token = leader.token;
        const asked = await leader.requestStepDown();
        assert.ok(asked.requested && !asked.repeated, JSON.stringify(asked));
        const deadline = Date.now() + 5000;
        while (!(leader.isLeader && leader.token > token) && Date.now() < deadline)
            await new Promise((resolve) => setTimeout(resolve, 10));
        assert.ok(leader.isLeader && leader.token > token, `leads again under a new token (${leader.token} after ${token})`);
    });
});
//# sourceMappingURL=revocation.test.js.map