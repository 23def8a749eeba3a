/**
 * Per-entity guarded locks leave nothing behind (README, "Locks"; issue 29): a lock with a
 * recovery handler keeps a ready record in its directory only while a section runs or after one
 * was interrupted (the record the next holder needs); a section that completes takes it away, so
 * the empty container directory is swept like any lock's. Fencing tokens keep increasing across
 * the sweeps (they are zxids, see `fencing.ts`), and an interrupted section is still repaired by
 * exactly the next holder.
 *
 * Its own server: the container manager checks every 100 ms instead of every minute.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockService } from '../../src/services/lock.service.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { waitFor } from '../support/wait.js';
import { ZkServer } from '../support/zk-server.js';
import { openSession, startLockApp, testRoot } from './lock-test-kit.js';
/** Every znode under `path` (not counting `path`), depth first; 0 when it does not exist. */
async function znodesUnder(session, path) {
    let children;
    try {
        ({ children } = await session.getChildren(path));
    }
    catch (error) {
        if (ZooKeeperError.is(error, 'NONODE'))
            return 0;
        throw error;
    }
    let count = children.length;
    for (const child of children)
        count += await znodesUnder(session, `${path}/${child}`);
    return count;
}
const ENTITIES = 40;
describe('guarded per-entity locks leave nothing behind', () => {
    let server;
    let app;
    let locks;
    let observer;
    const root = testRoot();
    const locksDir = `${root}/locks`;
    before(async () => {
        server = await ZkServer.start({ heap: '128m', jvmArgs: ['-Dznode.container.checkIntervalMs=100', '-Dznode.container.maxPerMinute=1000000'] });
        app = await startLockApp({ connect: server.connectString, root, sessionTimeoutMs: 4000 }, []);
        locks = app.get(LockService);
        observer = await openSession(server.connectString);
    });
    after(async () => {
        await app?.close();
        observer?.close();
        await server?.dispose();
    });
    it('after many guarded sections, contended or not, no znode is left once the container sweep ran', async () => {
        const recoveries = [];
        const recover = (interrupted) => void recoveries.push(interrupted);
        const tokens = new Map();
        const section = (name) => locks.withLock(name, async (lock) => {
            tokens.set(name, [...(tokens.get(name) ?? []), lock.fencingToken]);
            await lock.checkpoint({ step: 1 });
        }, { recover });
        // Each entity twice at once (a waiter behind the first holder), then once more alone.
        await Promise.all(Array.from({ length: ENTITIES }, (_, i) => Promise.all([section(`order:${i}`), section(`order:${i}`)])));
        await Promise.all(Array.from({ length: ENTITIES }, (_, i) => section(`order:${i}`)));
        const leftAtOnce = await znodesUnder(observer, locksDir);
        await waitFor(async () => (await znodesUnder(observer, locksDir)) === 0, { timeoutMs: 10_000, message: `no znode left under ${locksDir} (${leftAtOnce} right after the sections)` });
        process.stderr.write(`guarded-cleanup: ${ENTITIES} entities x 3 sections: ${leftAtOnce} znodes right after, 0 after the sweep\n`);
        assert.equal(recoveries.length, 0, 'every section completed: nothing to recover');
        // The directories were swept and are made again: tokens still increase, per entity.
        await Promise.all(Array.from({ length: ENTITIES }, (_, i) => section(`order:${i}`)));
        for (const [name, seen] of tokens) {
            assert.equal(seen.length, 4, name);
            for (let i = 1; i < seen.length; i++)
                assert.ok(seen[i] > seen[i - 1], `${name}: token #${i} ${seen[i]} after ${seen[i - 1]}`);
        }
    });
    it('an interrupted section keeps its record (and its directory) until the next holder repaired it; then both go', async () => {
        const recoveries = [];
        const recover = (interrupted) => void recoveries.push(interrupted);
        const name = 'invoice:7';
        await assert.rejects(locks.withLock(name, async (lock) => {
            await lock.checkpoint({ step: 'half' });
            throw new Error('crashed half-way');
        }, { recover }), /crashed half-way/);
        const dir = `${locksDir}/${name}`;
        // Longer than several sweeps: the dirty record is information, and keeps the directory.
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.deepEqual((await observer.getChildren(dir)).children, ['ready']);
        await locks.withLock(name, () => undefined, { recover });
        assert.deepEqual(recoveries.map((r) => r.checkpoint), [{ step: 'half' }], 'repaired by exactly the next holder');
        await waitFor(async () => (await observer.exists(dir)) === null, { timeoutMs: 10_000, message: `${dir} swept once repaired and completed` });
    });
});
//# sourceMappingURL=guarded-cleanup.test.js.map