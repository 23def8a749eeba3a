/**
 * Issue 14, L1 (the queue's part): releasing, closing and giving up never wait for an unreachable
 * ensemble longer than the session could live (invariant 10). `FairQueue.leave` resolves once the
 * node is gone or once its session counts as lost (or expired, closed, replaced), and goes on
 * deleting in the background while the session may still live: a `lost` session that comes back
 * (`reconnected`, same id) deletes its node; one that is abandoned is closed by the session supervisor. A join's wait control (waitMs, abort) also holds
 * while one of its requests is unanswered.
 *
 * Real faults: a stopped ZooKeeper (restarted: the server restores its sessions from its log), and
 * a TcpProxy partition.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { LockAbortedError } from '../../src/errors/lock-aborted.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { FaultySession } from '../support/faulty-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { ZkServer } from '../support/zk-server.js';
import { openSession, queueNodes, sharedConnect, testRoot } from './lock-test-kit.js';
const SESSION_TIMEOUT_MS = 3000;
/** Every state `session` goes through from now on. */
function recordStates(session) {
    const states = [];
    let first = true;
    const subscription = session.state$.subscribe((change) => {
        if (first)
            return void (first = false); // the replayed current state
        states.push(change.state);
    });
    return { states, stop: () => subscription.unsubscribe() };
}
describe('release and give-up while ZooKeeper is unreachable', () => {
    const sessions = [];
    after(() => sessions.forEach((session) => session.close()));
    describe('a stopped server', () => {
        let server;
        before(async () => {
            server = await ZkServer.start({ heap: '128m' });
        });
        after(async () => {
            sessions.forEach((session) => session.close());
            await server?.dispose();
        });
        it('release() and close() resolve once the session counts as lost; no node is left once the server is back', async () => {
            const root = testRoot();
            const session = await openSession(server.connectString, SESSION_TIMEOUT_MS);
            sessions.push(session);
            const id = session.sessionId;
            const locks = new LockClient(session, { root });
            const released = await locks.acquire('released');
            await locks.acquire('closed');
            const recorder = recordStates(session);
            await session.sync('/'); // a fresh answer: the loss clock counts from here
            await server.stop();
            await waitFor(() => session.state === 'suspended', { timeoutMs: 5000, message: 'the session was suspended' });
            const bound = 3 * SESSION_TIMEOUT_MS;
            await withTimeout(Promise.all([released.release(), locks.close()]), bound, 'release()/close() hang while ZooKeeper is down');
            assert.equal(recorder.states.includes('lost'), true, `resolved because the session counts as lost, not because the nodes went (states: ${recorder.states.join(' -> ')})`);
            // The server restores the old session from its log. Whether our client gets it back depends
            // on how long the restart took: within a session timeout of the disconnection, the same
            // session deletes its nodes in the background; later, the session is abandoned (a new one is
            // opened) and the library closes the old one once the server answers. Either way, nothing
            // is left behind.
            await server.restart();
            await waitFor(() => session.state === 'reconnected' || session.state === 'connected', { timeoutMs: 15_000, message: 'the session came back or was replaced' });
            const observer = await openSession(server.connectString);
            sessions.push(observer);
            const waitMs = 2 * SESSION_TIMEOUT_MS + 5000;
            await waitFor(async () => (await queueNodes(observer, locks.pathOf('released'))).length === 0, { timeoutMs: waitMs, message: 'the released node is gone' });
            await waitFor(async () => (await queueNodes(observer, locks.pathOf('closed'))).length === 0, { timeoutMs: waitMs, message: 'the closed node is gone' });
            const [suspended, lost, ...rest] = recorder.states;
            assert.deepEqual([suspended, lost], ['suspended', 'lost']);
            const cameBack = session.sessionId === id ? ['reconnected'] : ['expired', 'connected'];
            assert.deepEqual(rest, cameBack, `states: ${recorder.states.join(' -> ')}`);
            recorder.stop();
        });
    });
    describe('a partition (TcpProxy)', () => {
        let proxy;
        let observer;
        before(async () => {
            const [host, port] = sharedConnect().split(',')[0].split(':');
            proxy = await TcpProxy.start(host, Number(port));
            observer = await openSession(sharedConnect());
            sessions.push(observer);
        });
        afterEach(() => proxy.restore()); // also after a failed test
        after(async () => {
            await proxy?.close();
        });
        it("tryAcquire's give-up resolves once the connection counts as down; no node is left", async () => {
            const root = testRoot();
            const holder = await new LockClient(observer, { root }).acquire('busy');
            const session = await openSession(proxy.connectString, SESSION_TIMEOUT_MS);
            sessions.push(session);
            const faulty = new FaultySession(session);
            const locks = new LockClient(faulty, { root });
            // Behind the holder: the give-up's delete goes into a partition.
            faulty.before('delete', () => proxy.cut(), 1);
            const tried = await withTimeout(locks.tryAcquire('busy'), 3 * SESSION_TIMEOUT_MS, 'tryAcquire hangs while ZooKeeper is unreachable');
            assert.equal(tried, undefined);
            // A try answers once ZooKeeper is known unreachable (test/lock/try-once-outage.test.ts): at the
            // suspension, or at `lost` if the leader's proof ran out first; the delete goes on behind it.
            assert.ok(session.state === 'suspended' || session.state === 'lost', `answered while ${session.state}`);
            proxy.restore(); // reconnected (the node is deleted) or expired (it went with the session)
            await waitFor(async () => (await queueNodes(observer, locks.pathOf('busy'))).length === 1, { timeoutMs: 10_000, message: 'only the holder is left' });
            await holder.release();
        });
        it('an abort while the create is unanswered ends the acquire at once; the node it made is removed', async () => {
            const root = testRoot();
            const holder = await new LockClient(observer, { root }).acquire('inflight');
            const session = await openSession(proxy.connectString, SESSION_TIMEOUT_MS);
            sessions.push(session);
            const faulty = new FaultySession(session);
            const locks = new LockClient(faulty, { root });
            const dir = locks.pathOf('inflight');
            const controller = new AbortController();
            let sent;
            const createSent = new Promise((resolve) => (sent = resolve));
            faulty.before('create', (request) => {
                if (!request.path.includes('/_c_'))
                    return;
                proxy.cut(); // the create waits in the partition, unanswered
                sent();
            });
            const acquiring = locks.acquire('inflight', { signal: controller.signal });
            await withTimeout(createSent, 5000, 'the create was not sent');
            controller.abort();
            await assert.rejects(withTimeout(acquiring, SESSION_TIMEOUT_MS / 3, 'the abort waited for the unanswered create'), LockAbortedError);
            assert.equal(session.state, 'connected', 'ended by the abort, not by the connection dropping');
            proxy.restore(); // the create lands now, after the acquire gave up: its node must go
            await waitFor(() => faulty.count('delete') >= 1, { timeoutMs: 5000, message: 'the late node was deleted' });
            await waitFor(async () => (await queueNodes(observer, dir)).length === 1, { timeoutMs: 5000, message: 'only the holder is left' });
            await holder.release();
        });
    });
});
//# sourceMappingURL=release-outage.test.js.map