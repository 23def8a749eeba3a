/**
 * Invariant 5: acquisitions are granted in queue-node order. Acquirers are started one after
 * another, each only once the previous one's node exists, so the creation order is known; the
 * grant order must match it and the nodes' sequence numbers must increase along it, also when a
 * waiter in the middle gives up (its successor re-lists and watches the next one ahead).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { LockAbortedError } from '../../src/errors/lock-aborted.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { openSession, queueNodes, sequenceOf, sharedConnect, testRoot } from './lock-test-kit.js';
const WAITERS = 8;
describe('FIFO', () => {
    const sessions = [];
    let observer;
    before(async () => {
        observer = await openSession(sharedConnect());
        sessions.push(observer);
    });
    after(() => sessions.forEach((session) => session.close()));
    async function clients(count, root) {
        const opened = await Promise.all(Array.from({ length: count }, () => openSession(sharedConnect())));
        sessions.push(...opened);
        return opened.map((session) => new LockClient(session, { root }));
    }
    it(`grants ${WAITERS} queued acquirers in the order their nodes were created`, async () => {
        const root = testRoot();
        const [holderClient, ...waiters] = await clients(WAITERS + 1, root);
        const dir = holderClient.pathOf('fifo');
        const holder = await holderClient.acquire('fifo');
        const grants = [];
        const created = [];
        const runs = [];
        for (const [waiter, client] of waiters.entries()) {
            runs.push(client.acquire('fifo').then(async (lease) => {
                grants.push({ waiter, sequence: sequenceOf(lease.path) });
                await sleep(Math.floor(Math.random() * 4)); // a little work, so that hand-offs interleave with timers
                await lease.release();
            }));
            // The next acquirer starts only once this one's node exists: creation order = start order.
            const nodes = await waitFor(async () => {
                const listed = await queueNodes(observer, dir);
                return listed.length === waiter + 2 ? listed : undefined;
            }, { timeoutMs: 5000, message: `node of waiter ${waiter}` });
            created.push(sequenceOf(nodes.at(-1)));
        }
        await holder.release();
        await withTimeout(Promise.all(runs), 15_000, 'not every waiter was granted');
        assert.deepEqual(grants.map((grant) => grant.waiter), waiters.map((_, i) => i), 'grant order');
        assert.deepEqual(grants.map((grant) => grant.sequence), created, 'each waiter was granted on the node it created, in sequence order');
        assert.ok(created.every((sequence, i) => i === 0 || sequence > created[i - 1]));
        assert.deepEqual(await queueNodes(observer, dir), []);
    });
    it('keeps the order when a waiter in the middle gives up', async () => {
        const root = testRoot();
        const [holderClient, ...waiters] = await clients(5, root);
        const dir = holderClient.pathOf('fifo');
        const holder = await holderClient.acquire('fifo');
        const grants = [];
        const leaving = new AbortController();
        const runs = waiters.map((client, waiter) => async () => {
            let lease;
            try {
                lease = await client.acquire('fifo', waiter === 1 ? { signal: leaving.signal } : {});
            }
            catch (error) {
                assert.ok(error instanceof LockAbortedError && waiter === 1, `waiter ${waiter}: ${String(error)}`);
                return;
            }
            grants.push(waiter);
            await lease.release();
        });
        const started = [];
        for (const [waiter, run] of runs.entries()) {
            started.push(run());
            await waitFor(async () => (await queueNodes(observer, dir)).length === waiter + 2, { timeoutMs: 5000 });
        }
        // Waiter 2 watches waiter 1's node: its deletion wakes waiter 2, which must wait on for waiter 0.
        leaving.abort();
        await waitFor(async () => (await queueNodes(observer, dir)).length === waiters.length, { timeoutMs: 5000, message: 'waiter 1 left' });
        assert.deepEqual(grants, [], 'nobody was granted while the holder held the lock');
        await holder.release();
        await withTimeout(Promise.all(started), 15_000, 'not every waiter was granted');
        assert.deepEqual(grants, [0, 2, 3]);
        assert.deepEqual(await queueNodes(observer, dir), []);
    });
});
//# sourceMappingURL=fifo.test.js.map