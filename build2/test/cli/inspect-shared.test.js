/**
 * `inspect()` and its text on read/write locks and semaphores, against the shared server: readers
 * holding together with a writer and a reader queued behind them; a semaphore with permits taken,
 * its first waiter waiting for more and another caller behind it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { inspect } from '../../src/cli/inspect.js';
import { renderText } from '../../src/cli/render.js';
import { ensurePath } from '../../src/recipes/queue/ensure-path.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { randomRoot, SessionPool } from '../fixtures/session-helpers.js';
import { waitFor } from '../support/wait.js';
const IDENTITIES = ['reader-a', 'reader-b', 'writer-c', 'reader-d'];
describe('inspect: read/write locks and semaphores', () => {
    const pool = new SessionPool();
    const root = randomRoot();
    const waiting = new AbortController();
    let sessions;
    let clients;
    before(async () => {
        sessions = await Promise.all(IDENTITIES.map(() => pool.open({ sessionTimeoutMs: 4000 })));
        clients = sessions.map((session, i) => new LockClient(session, { root, identity: IDENTITIES[i] }));
        const dir = clients[0].pathOf('catalogue', 'read');
        await clients[0].acquireRead('catalogue');
        await clients[1].acquireRead('catalogue');
        void clients[2].acquireWrite('catalogue', { signal: waiting.signal }).catch(() => undefined);
        await waitFor(async () => (await sessions[0].getChildren(dir)).children.length === 3, { message: 'the writer queued' });
        void clients[3].acquireRead('catalogue', { signal: waiting.signal }).catch(() => undefined);
        await waitFor(async () => (await sessions[0].getChildren(dir)).children.length === 4, { message: 'the late reader queued' });
        const semaphore = clients[0].pathOf('exports', 'semaphore');
        await clients[0].acquirePermits('exports', { permits: 3, take: 2 });
        void clients[1].acquirePermits('exports', { permits: 3, take: 2 }, { signal: waiting.signal }).catch(() => undefined);
        await waitFor(async () => (await sessions[0].getChildren(semaphore)).children.length === 2, { message: 'the first waiter queued' });
        void clients[2].acquirePermits('exports', { permits: 3, take: 1 }, { signal: waiting.signal }).catch(() => undefined);
        await waitFor(async () => (await sessions[0].getChildren(semaphore)).children.length === 3, { message: 'a second caller queued' });
    });
    after(async () => {
        waiting.abort();
        await Promise.all(clients.map((client) => client.close()));
        await pool.closeAll();
    });
    it('shows who holds a read/write lock and who waits, in queue order', async () => {
        const { readWriteLocks } = await inspect(sessions[0], root);
        assert.equal(readWriteLocks.length, 1);
        const [lock] = readWriteLocks;
        assert.deepEqual(lock.holders.map((node) => [node.identity, node.mode]), [['reader-a', 'read'], ['reader-b', 'read']]);
        assert.deepEqual(lock.waiters.map((node) => [node.identity, node.mode]), [['writer-c', 'write'], ['reader-d', 'read']]);
    });
    it('shows a semaphore\'s permits, its holders and its waiters in queue order', async () => {
        const { semaphores } = await inspect(sessions[0], root);
        const [semaphore] = semaphores;
        assert.equal(semaphore.permits, 3);
        assert.equal(semaphore.taken, 2, 'the holder\'s 2');
        assert.deepEqual(semaphore.holders.map((node) => [node.identity, node.take]), [['reader-a', 2]]);
        // The caller for 1 would fit, but it came after the caller for 2: nobody overtakes.
        assert.deepEqual(semaphore.waiters.map((node) => [node.identity, node.take]), [['reader-b', 2], ['writer-c', 1]]);
    });
    it('renders both as text', async () => {
        const text = renderText(await inspect(sessions[0], root), { connect: 'test' });
        assert.match(text, /READ\/WRITE LOCKS \(1\)\ncatalogue: 2 readers, 2 waiters/);
        assert.match(text, /holder \(read\)\s+reader-a/);
        assert.match(text, /waiter \(write\)\s+writer-c/);
        assert.match(text, /SEMAPHORES \(1\)\nexports: 2 of 3 permits taken, the next waits for 2, 2 waiters/);
        assert.match(text, /holds 2\s+reader-a/);
        assert.match(text, /waits for 2\s+reader-b/);
        assert.match(text, /waits for 1\s+writer-c/);
    });
    // Issue 29: the inspector restated who holds, and took a persistent node named like a queue node
    // (made by hand) for a holder, which the queue itself skips once it reads it.
    it('asks the recipes who holds: a persistent look-alike at the head holds nothing', async () => {
        const own = randomRoot();
        const [client] = [new LockClient(sessions[0], { root: own, identity: 'holder' })];
        const lockDir = client.pathOf('by-hand');
        const semaphoreDir = client.pathOf('by-hand-pool', 'semaphore');
        for (const dir of [lockDir, semaphoreDir])
            await ensurePath(sessions[0], dir, 'persistent');
        await sessions[0].create(`${lockDir}/_c_${randomUUID()}-lock-`, null, 'persistent_sequential');
        await sessions[0].create(`${semaphoreDir}/_c_${randomUUID()}-2of3-`, null, 'persistent_sequential');
        const lock = await client.acquire('by-hand');
        const permits = (await client.acquirePermits('by-hand-pool', { permits: 3, take: 1 }));
        try {
            const inspection = await inspect(sessions[0], own);
            const [inspectedLock] = inspection.locks;
            assert.equal(inspectedLock.holder?.identity, 'holder', 'the holder is the first node a session owns');
            assert.deepEqual(inspectedLock.waiters.map((node) => node.sessionId), ['0'], 'the look-alike holds nothing');
            const [semaphore] = inspection.semaphores;
            assert.deepEqual(semaphore.holders.map((node) => [node.identity, node.take]), [['holder', 1]]);
            assert.equal(semaphore.taken, 1);
            assert.deepEqual(semaphore.waiters.map((node) => node.sessionId), ['0']);
        }
        finally {
            await Promise.all([lock.release(), permits.release()]);
            await client.close();
        }
    });
});
//# sourceMappingURL=inspect-shared.test.js.map