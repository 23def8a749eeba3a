/**
 * `ZkLockTesting`'s ZooKeeper-level controls: the server's clock (`advanceTime`), the process's
 * connection (`cutConnection`), stand-in participants and holders, and what the production
 * session, locks and elections make of them.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { Test } from '@nestjs/testing';
import { firstValueFrom, filter } from 'rxjs';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { InvalidOptionsError, LeaderService, LockLostError, LockService, ZkSession } from '../../src/index.js';
import { ZkLockTesting, ZkLockTestingModule } from '../../src/testing/index.js';
let moduleRef;
let testing;
let session;
let locks;
let leader;
let states;
beforeEach(async () => {
    moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot({ identity: 'unit', election: {}, drainTimeoutMs: 0 })] }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init(); // the configured default election joins, behind a stand-in
    testing = moduleRef.get(ZkLockTesting);
    session = moduleRef.get(ZkSession);
    locks = moduleRef.get(LockService);
    leader = moduleRef.get(LeaderService);
    states = [];
    session.state$.subscribe((change) => states.push(change.state));
});
afterEach(() => moduleRef.close());
const leading = (value) => firstValueFrom(leader.isLeader$.pipe(filter((isLeader) => isLeader === value)));
describe('ZkLockTesting: stand-ins', () => {
    it('a stand-in leads until setLeader(true): participants() and leader$ show it', async () => {
        assert.equal(leader.isLeader, false);
        await waitFor(async () => (await leader.participants()).length === 2);
        assert.deepEqual(await leader.participants(), ['stand-in', 'unit']);
        assert.equal(await firstValueFrom(leader.leader$.pipe(filter((id) => id !== null))), 'stand-in');
        await testing.setLeader(true);
        assert.deepEqual(await leader.participants(), ['unit']);
        await testing.setLeader(false);
        await waitFor(async () => (await leader.participants()).length === 2);
        assert.deepEqual(await leader.participants(), ['stand-in', 'unit'], 'joined again behind a new stand-in');
    });
    it('interruptLock is refused while the lock is held; loseLock takes one lock and leaves the others', async () => {
        const a = await locks.acquire('a');
        const b = await locks.acquire('b');
        await assert.rejects(testing.interruptLock('a'), /is held right now/);
        const waiter = locks.acquire('a');
        await waitFor(() => testing.lockState('a').waiting === 1);
        assert.equal(await testing.loseLock('a', 'staged'), 1);
        assert.ok(a.signal.reason instanceof LockLostError && /staged/.test(a.signal.reason.message));
        assert.equal(b.isHeld, true);
        const next = await waiter;
        assert.deepEqual(testing.lockState('a'), { held: true, token: next.fencingToken, waiting: 0 });
        await Promise.all([next.release(), b.release()]);
    });
});
describe('ZkLockTesting: the server clock and the connection', () => {
    it('advanceTime keeps a connected session alive (its pings run on the way) and sweeps emptied containers', async () => {
        const id = session.sessionId;
        const lease = await locks.acquire('swept');
        await lease.release();
        assert.notEqual(await session.exists('/zk-lock/locks/swept'), null, 'the container outlives its last child for a while');
        await testing.advanceTime(10 * 60_000);
        assert.equal(session.sessionId, id);
        assert.deepEqual(states, ['connected']);
        assert.equal(await session.exists('/zk-lock/locks/swept'), null, 'swept');
    });
    it('cutConnection(): suspended, then reconnected on the same session; locks are kept, leadership comes back', async () => {
        await testing.setLeader(true);
        const lease = await locks.acquire('kept');
        const id = session.sessionId;
        await testing.cutConnection();
        assert.equal(leader.isLeader, false, 'not leading while disconnected (suspendPolicy immediate)');
        await session.waitForConnection();
        assert.deepEqual([session.sessionId, states], [id, ['connected', 'suspended', 'reconnected']]);
        assert.equal(lease.isHeld, true);
        await leading(true);
        await lease.release();
    });
    it('cutConnection({ forMs }) past the session timeout: the server expires the session, its locks are lost, a new one joins again', async () => {
        await testing.setLeader(true);
        const lease = await locks.acquire('doomed');
        const id = session.sessionId;
        await testing.cutConnection({ forMs: 60_000 });
        await testing.advanceTime(60_000 + 21_000); // the session times out at the server; the partition ends; the client hears of the expiry
        await session.waitForConnection();
        assert.notEqual(session.sessionId, id);
        assert.deepEqual(states, ['connected', 'suspended', 'expired', 'connected']);
        assert.ok(lease.signal.reason instanceof LockLostError && /expired/.test(lease.signal.reason.message));
        assert.equal(testing.lockState('doomed').held, false, 'its node went with the session');
        await leading(true); // alone in the queue (the stand-ins were dismissed), the new session leads again
    });
    it('cutConnection({ forMs }) above 2^31-1 ms is refused: its timer would end the partition after 1 ms', async () => {
        await assert.rejects(testing.cutConnection({ forMs: 2 ** 31 }), (error) => error instanceof InvalidOptionsError && error.field === 'forMs' && /2147483647/.test(error.message));
        assert.deepEqual(states, ['connected'], 'nothing was cut');
    });
    it('a session cut for less than its timeout comes back: reconnected once the partition ends', async () => {
        const lease = await locks.acquire('kept');
        await testing.cutConnection({ forMs: 10_000 });
        await testing.advanceTime(25_000); // its attempt during the cut times out (2/3 of the session timeout), the next one succeeds
        await session.waitForConnection();
        assert.deepEqual(states, ['connected', 'suspended', 'reconnected']);
        assert.equal(lease.isHeld, true);
        await lease.release();
    });
});
/** Polls `condition` on the event loop (bounded: 2 s). */
async function waitFor(condition) {
    const deadline = Date.now() + 2000;
    while (!(await condition())) {
        if (Date.now() > deadline)
            assert.fail('condition not reached');
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
}
//# sourceMappingURL=server-controls.test.js.map