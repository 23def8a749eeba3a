/**
 * DESIGN §4: fencing tokens strictly increase over the grants of a lock, also across a deleted
 * and recreated (container) lock directory, where sequence numbers start again from 0, and
 * across clients whose grants interleave.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { waitFor } from '../support/wait.js';
import { ZkServer } from '../support/zk-server.js';
import { openSession, sequenceOf, sharedConnect, testRoot } from './lock-test-kit.js';
function assertStrictlyIncreasing(tokens, what) {
    for (let i = 1; i < tokens.length; i++) {
        assert.ok(tokens[i] > tokens[i - 1], `${what}: token #${i} (${tokens[i]}) is not above #${i - 1} (${tokens[i - 1]})`);
    }
}
describe('fencing tokens', () => {
    const sessions = [];
    let server;
    before(async () => {
        sessions.push(await openSession(sharedConnect()), await openSession(sharedConnect()));
    });
    after(async () => {
        sessions.forEach((session) => session.close());
        await server?.dispose();
    });
    it('strictly increase over 1000 acquisitions, with the lock directory deleted every 100', async () => {
        const [session] = sessions;
        const locks = new LockClient(session, { root: testRoot() });
        const dir = locks.pathOf('fenced');
        const tokens = [];
        const sequences = [];
        const dirs = new Set();
        for (let i = 1; i <= 1000; i++) {
            const lease = await locks.acquire('fenced');
            tokens.push(lease.fencingToken);
            sequences.push(sequenceOf(lease.path));
            await lease.release();
            if (i % 100 === 0) {
                dirs.add((await session.exists(dir)).czxid);
                await session.delete(dir); // empty now: the next acquire recreates it
            }
        }
        assertStrictlyIncreasing(tokens, '1000 acquisitions');
        assert.equal(dirs.size, 10, 'ten different incarnations of the directory');
        // The sequence restarts with every new directory: it could not serve as a token.
        assert.deepEqual(sequences.filter((sequence) => sequence === 0).length, 10);
    });
    it('strictly increase in grant order when two clients interleave', async () => {
        const root = testRoot();
        const grants = [];
        await Promise.all(sessions.map(async (session, client) => {
            const locks = new LockClient(session, { root });
            for (let i = 0; i < 150; i++) {
                const lease = await locks.acquire('shared');
                grants.push({ client, token: lease.fencingToken }); // in grant order: the lock is exclusive
                await lease.release();
            }
        }));
        assertStrictlyIncreasing(grants.map((grant) => grant.token), 'interleaved grants');
        const switches = grants.filter((grant, i) => i > 0 && grant.client !== grants[i - 1].client).length;
        assert.ok(switches >= 50, `the clients really interleaved (${switches} switches)`);
    });
    it("strictly increase across the server's container manager deleting the lock directory", async () => {
        // Our own server: its container manager checks every 100 ms instead of every minute.
        server = await ZkServer.start({ heap: '128m', jvmArgs: ['-Dznode.container.checkIntervalMs=100'] });
        const session = await openSession(server.connectString);
        sessions.push(session);
        const locks = new LockClient(session, { root: testRoot() });
        const dir = locks.pathOf('reaped');
        const tokens = [];
        for (let round = 0; round < 4; round++) {
            for (let i = 0; i < 5; i++) {
                const lease = await locks.acquire('reaped');
                tokens.push(lease.fencingToken);
                await lease.release();
            }
            await waitFor(async () => (await session.exists(dir)) === null, { timeoutMs: 10_000, message: 'the container manager deleted the empty lock directory' });
        }
        assertStrictlyIncreasing(tokens, 'across container deletions');
    });
});
//# sourceMappingURL=fencing.test.js.map