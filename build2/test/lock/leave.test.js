/**
 * Issue 14, S4 and the smaller `leave` items: how the queue gets rid of its own node.
 *
 * - After a lost create reply, the listing that looks for the node the create may have made is
 *   preceded by a `sync` of the directory: the server we reconnected to may lag behind the one
 *   that applied the create, and without the sync the listing misses our node, a second one is
 *   created, and the first stays ahead of everyone for as long as our session lives.
 * - SESSIONMOVED (a request that reached the old server after the session moved) is a connection
 *   error: `leave` retries on the same session instead of giving up with the node still there.
 * - THROTTLEDOP is retried after a short back-off; NOAUTH cannot be fixed by retrying and rejects
 *   with a typed error naming the node.
 *
 * Real server (the shared one), faults injected with FaultySession.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { QueueNodeNotRemovedError } from '../../src/errors/queue-node-not-removed.error.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { basenameOf } from '../../src/zookeeper/znode-path.js';
import { connectionLoss, FaultySession } from '../support/faulty-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { openSession, queueNodes, sharedConnect, testRoot } from './lock-test-kit.js';
/** The next delete fails with `rc` without being sent (so `sent` holds only the deletes after it). */
function failDeleteOnce(faulty, rc) {
    faulty.before('delete', (request) => {
        throw new ZooKeeperError(rc, 'delete', request.path, 'injected by FaultySession');
    }, 1);
}
describe('leave: how a queue node goes', () => {
    let proxy;
    let observer;
    const sessions = [];
    before(async () => {
        const [host, port] = sharedConnect().split(',')[0].split(':');
        proxy = await TcpProxy.start(host, Number(port));
        observer = await openSession(sharedConnect());
        sessions.push(observer);
    });
    after(async () => {
        await proxy?.close();
        sessions.forEach((session) => session.close());
    });
    async function faultySession(connectString = sharedConnect()) {
        const session = await openSession(connectString, 2000);
        sessions.push(session);
        return new FaultySession(session);
    }
    it('after a lost create reply, the listing that adopts our node is preceded by a sync of the directory', async () => {
        const root = testRoot();
        const faulty = await faultySession(proxy.connectString);
        const locks = new LockClient(faulty, { root });
        const dir = locks.pathOf('adopt');
        let createSeq = 0;
        faulty.after('create', (request, outcome) => {
            if (!outcome.ok || !request.path.includes('/_c_') || createSeq)
                return undefined;
            createSeq = request.seq;
            proxy.reset();
            return { ok: false, error: connectionLoss('create', request.path) };
        });
        const lease = await withTimeout(locks.acquire('adopt'), 10_000, 'the acquire was never granted');
        // Everything on the directory after the create, except the listing pipelined right behind it.
        const later = faulty.sent.filter((request) => request.seq > createSeq + 1 && request.path === dir).map((request) => request.op);
        const firstListing = later.indexOf('getChildren');
        assert.ok(firstListing > 0, `a listing after the lost reply, behind something: ${later.join(', ')}`);
        assert.equal(later[firstListing - 1], 'sync', `the adopt-listing is preceded by a sync of ${dir}: ${later.join(', ')}`);
        assert.deepEqual(await queueNodes(observer, dir), [basenameOf(lease.path)], 'the adopted node, and no second one');
        await lease.release();
        assert.deepEqual(await queueNodes(observer, dir), []);
    });
    it('SESSIONMOVED is a connection error (the session lives on through its new server), not a gone session', () => {
        const moved = new ZooKeeperError(-118, 'delete', '/x');
        assert.equal(moved.zkCode, 'SESSIONMOVED');
        assert.equal(moved.isConnectionError, true);
        assert.equal(moved.isSessionGone, false);
    });
    it('a delete refused with SESSIONMOVED is retried on the same session: the node ends up gone', async () => {
        const root = testRoot();
        const faulty = await faultySession();
        const locks = new LockClient(faulty, { root });
        const lease = await locks.acquire('moved');
        failDeleteOnce(faulty, -118);
        await withTimeout(lease.release(), 5000, 'release hangs');
        assert.deepEqual(await queueNodes(observer, locks.pathOf('moved')), [], 'the node is still there: the lock is stuck while the session lives');
        assert.equal(faulty.count('delete'), 1, 'the refused delete was sent again');
    });
    it('a delete refused with THROTTLEDOP is retried after a pause: the node ends up gone', async () => {
        const root = testRoot();
        const faulty = await faultySession();
        const locks = new LockClient(faulty, { root });
        const lease = await locks.acquire('throttled');
        failDeleteOnce(faulty, -127);
        await withTimeout(lease.release(), 5000, 'release hangs');
        assert.deepEqual(await queueNodes(observer, locks.pathOf('throttled')), []);
        assert.equal(faulty.count('delete'), 1, 'the refused delete was sent again');
    });
    it('a delete refused with NOAUTH rejects with QueueNodeNotRemovedError naming the node', async () => {
        const root = testRoot();
        const faulty = await faultySession();
        const locks = new LockClient(faulty, { root });
        const lease = await locks.acquire('noauth');
        failDeleteOnce(faulty, -102);
        await assert.rejects(withTimeout(lease.release(), 5000, 'release hangs'), (error) => {
            assert.ok(error instanceof QueueNodeNotRemovedError, `got ${String(error)}`);
            assert.equal(error.path, lease.path);
            assert.match(error.message, new RegExp(lease.path));
            assert.ok(ZooKeeperError.is(error.cause, 'NOAUTH'));
            return true;
        });
        assert.equal(faulty.count('delete'), 0, 'not sent again: no retry fixes NOAUTH');
        await faulty.delete(lease.path); // what an operator would do
        await waitFor(async () => (await queueNodes(observer, locks.pathOf('noauth'))).length === 0, { timeoutMs: 5000 });
    });
});
//# sourceMappingURL=leave.test.js.map