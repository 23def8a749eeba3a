var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
/**
 * The counting semaphore against the shared ZooKeeper server: never more permits held than the
 * capacity, and the capacity reached; first come, first served, a request for several permits all
 * or nothing (it holds none while it waits, and nobody overtakes it); the capacity checked against
 * every holder's; a release wakes the waiter it grants; nothing left behind after a timeout, an abort, a busy
 * try or a lost create reply; and the LockService face (`withSemaphore`, `@WithSemaphore`).
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { Injectable } from '@nestjs/common';
import { WithWriteLock } from '../../src/decorators/with-read-write-lock.decorator.js';
import { WithSemaphore } from '../../src/decorators/with-semaphore.decorator.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { LockAbortedError } from '../../src/errors/lock-aborted.error.js';
import { LockBusyError } from '../../src/errors/lock-busy.error.js';
import { LockTimeoutError } from '../../src/errors/lock-timeout.error.js';
import { SemaphorePermitsMismatchError } from '../../src/errors/semaphore-permits-mismatch.error.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { lockContext } from '../../src/services/lock-context.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { ensurePath } from '../../src/recipes/queue/ensure-path.js';
import { connectionLoss, FaultySession } from '../support/faulty-session.js';
import { withTimeout } from '../support/wait.js';
import { firedWatches, lockAppSuite, lockClientsSuite, openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Children of `path`, [] when it does not exist. */
async function childrenOf(observer, path) {
    try {
        return (await observer.getChildren(path)).children;
    }
    catch (error) {
        if (ZooKeeperError.is(error, 'NONODE'))
            return [];
        throw error;
    }
}
/** The semaphore's queue nodes: its holders' and its waiters'. */
async function queuedIn(observer, dir) {
    return (await childrenOf(observer, dir)).filter((child) => child.startsWith('_c_'));
}
/** Resolves once `probe` is true, bounded. */
async function until(probe, what) {
    for (let i = 0; i < 500; i += 1) {
        if (await probe())
            return;
        await sleep(10);
    }
    throw new Error(`never: ${what}`);
}
describe('counting semaphore (LockClient.acquirePermits)', () => {
    const root = testRoot();
    const suite = lockClientsSuite(root, 8);
    let sessions;
    let clients;
    let observer;
    before(() => ({ sessions, clients, observer } = suite));
    it('never holds more than the permits, and uses all of them', async () => {
        let holding = 0;
        let most = 0;
        let over = 0;
        const work = clients.map(async (client) => {
            for (let i = 0; i < 12; i += 1) {
                const lease = (await client.acquirePermits('pool', { permits: 3, take: 1 }));
                holding += 1;
                most = Math.max(most, holding);
                if (holding > 3)
                    over += 1;
                // Each caller's first hold lasts until 3 held at once (bounded): whether all the permits are
                // used then depends on the semaphore, not on how the 3 ms holds happen to overlap.
                if (i === 0)
                    await until(async () => most === 3, 'all 3 permits in use at once');
                await sleep(3);
                holding -= 1;
                await lease.release();
            }
        });
        await withTimeout(Promise.all(work), 30_000, 'every acquisition ends');
        assert.equal(over, 0, 'never more than 3 at once');
        assert.equal(most, 3, 'all 3 permits in use at some point');
        assert.deepEqual(await queuedIn(observer, clients[0].pathOf('pool', 'semaphore')), [], 'nothing left behind');
    });
    it('a request for several permits is all or nothing, in arrival order: it holds none while waiting, and nobody overtakes it', async () => {
        const name = 'multi';
        const dir = clients[0].pathOf(name, 'semaphore');
        const a = (await clients[0].acquirePermits(name, { permits: 3, take: 2 }));
        let big;
        const bigWaits = clients[1].acquirePermits(name, { permits: 3, take: 2 }).then((lease) => (big = lease));
        await until(async () => (await queuedIn(observer, dir)).length === 2, 'the second request waits first in line');
        let small;
        const smallWaits = clients[2].acquirePermits(name, { permits: 3, take: 1 }).then((lease) => (small = lease));
        await until(async () => (await queuedIn(observer, dir)).length === 3, 'the third queues behind it');
        await sleep(100);
        assert.equal(big, undefined, '2 + 2 > 3: the second waits');
        assert.equal(small, undefined, 'one permit is free, but the third does not overtake the second');
        await a.release();
        await withTimeout(bigWaits, 5000, 'the second takes both permits once the first is gone');
        await withTimeout(smallWaits, 5000, 'then the third takes the last permit, beside the second (2 + 1 = 3)');
        assert.ok(big.isHeld && small.isHeld);
        await big.release();
        await small.release();
    });
    it('a release wakes the one waiter it grants, and that grant the one behind it, not everyone queued (herd-free)', async () => {
        const name = 'herd';
        const dir = clients[0].pathOf(name, 'semaphore');
        const holder = (await clients[0].acquirePermits(name, { permits: 1, take: 1 }));
        let granted = 0;
        const waiting = clients.slice(1, 7).map((client) => client.acquirePermits(name, { permits: 1, take: 1 }).then((lease) => ((granted += 1), lease)));
        await until(async () => (await queuedIn(observer, dir)).length === 7, 'the holder and six waiters');
        await sleep(50);
        const before = await firedWatches(sharedConnect());
        await holder.release();
        await until(async () => granted === 1, 'the first waiter took the permit');
        await sleep(100);
        const fired = (await firedWatches(sharedConnect())) - before;
        // The first waiter's watch on the queue (the release), and the next waiter's on the first's
        // node (its grant's mark, after which the next waits first in line).
        assert.equal(fired, 2, 'two notifications, whatever the queue length');
        const leases = await Promise.all(waiting.map(async (pending) => {
            const lease = (await pending);
            await lease.release();
            return lease;
        }));
        assert.equal(leases.length, 6);
    });
    it('free permits cost what a free lock costs: a create and a listing in one round trip, then the delete', async () => {
        const faulty = new FaultySession(sessions[5]);
        const client = new LockClient(faulty, { root });
        const name = 'cheap';
        const dir = client.pathOf(name, 'semaphore');
        try {
            await (await clients[0].acquirePermits(name, { permits: 2, take: 1 })).release(); // the directory exists
            const other = (await clients[0].acquirePermits(name, { permits: 2, take: 1 }));
            const since = faulty.sent.length;
            const lease = (await client.acquirePermits(name, { permits: 2, take: 1 }));
            await lease.release();
            assert.deepEqual(faulty.sent.slice(since).map((r) => [r.op, r.path.startsWith(`${dir}/`) ? 'node' : r.path]), [
                ['create', 'node'],
                ['getChildren', dir],
                ['delete', 'node'],
            ], 'no mark: nobody queued behind it');
            await other.release();
        }
        finally {
            await client.close();
        }
    });
    it('a release that frees several permits grants the waiters one after the other, each grant waking the next (its mark)', async () => {
        const name = 'chain';
        const dir = clients[0].pathOf(name, 'semaphore');
        const big = (await clients[0].acquirePermits(name, { permits: 3, take: 3 }));
        const order = [];
        const leases = [];
        for (const i of [1, 2, 3, 4]) {
            leases.push(clients[i].acquirePermits(name, { permits: 3, take: 1 }).then((lease) => (order.push(i), lease)));
            await until(async () => (await queuedIn(observer, dir)).length === i + 1, `waiter ${i} queued`);
        }
        await big.release();
        // Waiter 2 and 3 fit as soon as the 3 permits are back, but only waiter 1 watches the queue:
        // each learns of its turn from the grant of the one ahead of it, while that one still holds.
        const granted = await withTimeout(Promise.all(leases.slice(0, 3)), 5000, 'three waiters granted while all hold');
        assert.deepEqual(order, [1, 2, 3], 'in arrival order');
        assert.ok(granted.every((lease) => lease.isHeld));
        await sleep(50);
        assert.deepEqual(order, [1, 2, 3], 'the fourth waits: 3 permits are taken');
        await granted[1].release();
        const fourth = await withTimeout(leases[3], 5000, 'the fourth takes the permit released out of order');
        for (const lease of [granted[0], granted[2], fourth])
            await lease.release();
        assert.deepEqual(await queuedIn(observer, dir), []);
    });
    /**
     * A holder of both of 2 permits, a first waiter queued for 1, then a second waiter for 1 through a
     * FaultySession that `hook` sets up; `grantAndMark(node)` (for the hook to call while the second
     * looks at `node`) releases the holder and waits until the first waiter's node is marked granted.
     * The second must be granted beside the first. Returns the nodes `grantAndMark` was called for.
     */
    async function secondGrantedByMark(name, hook) {
        const faulty = new FaultySession(sessions[5]);
        const client = new LockClient(faulty, { root });
        const dir = client.pathOf(name, 'semaphore');
        const waitedFor = [];
        try {
            const holder = (await clients[0].acquirePermits(name, { permits: 2, take: 2 }));
            const first = clients[1].acquirePermits(name, { permits: 2, take: 1 });
            await until(async () => (await queuedIn(observer, dir)).length === 2, 'the first waiter queued');
            hook(faulty, dir, async (node) => {
                waitedFor.push(node);
                await holder.release();
                await until(async () => ((await observer.exists(node))?.version ?? 0) > 0, 'the first waiter granted and marked');
            });
            // The permits are free (the first waiter holds one of two): no release needed to get the other.
            const second = (await withTimeout(client.acquirePermits(name, { permits: 2, take: 1 }), 5000, 'the second is granted beside the first'));
            const firstLease = (await withTimeout(first, 5000, 'the first waiter granted'));
            assert.ok(firstLease.isHeld && second.isHeld);
            await Promise.all([firstLease.release(), second.release()]);
        }
        finally {
            await client.close();
        }
        return waitedFor;
    }
    it('a grant marked before the waiter behind it set its watch still wakes it', async () => {
        // The second waiter's watch on the first waiter's node is held back until that node is marked.
        const waitedFor = await secondGrantedByMark('early-mark', (faulty, dir, grantAndMark) => faulty.before('getData', async (request) => {
            if (request.path.startsWith(`${dir}/`))
                await grantAndMark(request.path);
        }, 1));
        assert.equal(waitedFor.length, 1, 'the second waited for the first');
    });
    it('a grant marked after a failed look at the predecessor (CONNECTIONLOSS) still wakes the waiter behind it', async () => {
        // The second waiter's first look at the first waiter's node fails; its next one is held
        // back until that node is granted and marked: the same node, waited for a second time.
        const waitedFor = await secondGrantedByMark('mark-after-loss', (faulty, dir, grantAndMark) => faulty.before('getData', (request) => {
            if (!request.path.startsWith(`${dir}/`))
                return;
            faulty.before('getData', (again) => grantAndMark(again.path), 1);
            throw connectionLoss('getData', request.path);
        }, 1));
        assert.equal(waitedFor.length, 1, 'the second waited for the first again');
    });
    it("the grant's mark is not taken for a release request", async () => {
        const name = 'no-request';
        const dir = clients[0].pathOf(name, 'semaphore');
        const holder = (await clients[0].acquirePermits(name, { permits: 1, take: 1 }));
        const first = clients[1].acquirePermits(name, { permits: 1, take: 1 });
        await until(async () => (await queuedIn(observer, dir)).length === 2, 'the first waiter queued');
        const second = clients[2].acquirePermits(name, { permits: 1, take: 1 });
        await until(async () => (await queuedIn(observer, dir)).length === 3, 'the second waiter queued behind it');
        await holder.release();
        const lease = (await withTimeout(first, 5000, 'the first waiter granted'));
        await until(async () => ((await observer.exists(lease.path))?.version ?? 0) > 0, 'the grant marked (someone queued behind it)');
        const requested = lease.releaseRequested;
        await sleep(100);
        assert.equal(requested.aborted, false);
        await lease.release();
        await (await withTimeout(second, 5000, 'the second waiter granted once the first released')).release();
    });
    it('a waiter whose node was marked by hand (no grant) costs the one behind it one more look, not a loop', async () => {
        const faulty = new FaultySession(sessions[5]);
        const client = new LockClient(faulty, { root });
        const name = 'hand-marked';
        const dir = client.pathOf(name, 'semaphore');
        try {
            const holder = (await clients[0].acquirePermits(name, { permits: 1, take: 1 }));
            const first = clients[1].acquirePermits(name, { permits: 1, take: 1 });
            await until(async () => (await queuedIn(observer, dir)).length === 2, 'the first waiter queued');
            const second = client.acquirePermits(name, { permits: 1, take: 1 });
            await until(async () => (await queuedIn(observer, dir)).length === 3, 'the second waiter queued');
            await sleep(50);
            const [firstNode] = (await queuedIn(observer, dir)).filter((node) => node.endsWith('-0000000001'));
            const since = faulty.sent.length;
            await observer.setData(`${dir}/${firstNode}`, Buffer.from('poked'), -1); // not a grant: the first still waits
            await sleep(300);
            const looks = faulty.sent.slice(since).length;
            assert.ok(looks >= 2, 'the change woke the second: it looked again and watched again');
            assert.ok(looks <= 4, `a bounded number of requests, not a loop (${looks})`);
            await holder.release();
            const firstLease = (await withTimeout(first, 5000, 'the first granted'));
            await firstLease.release();
            await (await withTimeout(second, 5000, 'then the second')).release();
        }
        finally {
            await client.close();
        }
    });
    it('refuses a request nobody could hold with a typed error, at once and without a node', async () => {
        const name = 'impossible';
        const dir = clients[0].pathOf(name, 'semaphore');
        await assert.rejects(clients[0].acquirePermits(name, { permits: 2, take: 3 }), (error) => error instanceof InvalidOptionsError && /take/.test(error.message));
        await assert.rejects(clients[0].acquirePermits(name, { permits: 0, take: 1 }), InvalidOptionsError);
        await assert.rejects(clients[0].acquirePermits(name, { permits: 2, take: 1.5 }), InvalidOptionsError);
        assert.deepEqual(await queuedIn(observer, dir), []);
    });
    it('refuses a caller with another capacity while anyone holds under the first', async () => {
        const name = 'mismatch';
        const dir = clients[0].pathOf(name, 'semaphore');
        const held = (await clients[0].acquirePermits(name, { permits: 2, take: 1 }));
        const refused = await clients[1].acquirePermits(name, { permits: 5, take: 1 }).then(() => assert.fail('granted under another capacity'), (error) => error);
        assert.ok(refused instanceof SemaphorePermitsMismatchError);
        assert.equal(refused.recorded, 2);
        assert.equal(refused.requested, 5);
        assert.match(refused.message, new RegExp(dir));
        assert.deepEqual((await queuedIn(observer, dir)).length, 1, 'the refused caller left no node');
        await held.release();
    });
    it('timeouts, aborts and busy tries leave no node (no permit leaks)', async () => {
        const name = 'give-up';
        const dir = clients[0].pathOf(name, 'semaphore');
        const held = (await clients[0].acquirePermits(name, { permits: 1, take: 1 }));
        const holderNode = await queuedIn(observer, dir);
        assert.equal(await clients[1].acquirePermits(name, { permits: 1, take: 1 }, { waitMs: 0 }), undefined, 'busy: undefined at once');
        await assert.rejects(clients[1].acquirePermits(name, { permits: 1, take: 1 }, { waitMs: 150 }), LockTimeoutError);
        const controller = new AbortController();
        const aborted = clients[2].acquirePermits(name, { permits: 1, take: 1 }, { signal: controller.signal });
        await until(async () => (await queuedIn(observer, dir)).length === 2, 'the aborted caller waits');
        controller.abort('changed my mind');
        await assert.rejects(aborted, LockAbortedError);
        assert.deepEqual(await queuedIn(observer, dir), holderNode, 'only the holder\'s node is left');
        await held.release();
        // The capacity is whole again: a fresh caller takes the permit at once.
        const next = await clients[3].acquirePermits(name, { permits: 1, take: 1 }, { waitMs: 0 });
        assert.ok(next?.isHeld, 'the permit is free');
        await next.release();
    });
    it('a timeout is not held up by a request that is not answered, and leaves nothing behind', async () => {
        const faulty = new FaultySession(sessions[6]);
        const client = new LockClient(faulty, { root });
        const name = 'unanswered';
        const dir = client.pathOf(name, 'semaphore');
        const held = (await clients[0].acquirePermits(name, { permits: 1, take: 1 }));
        try {
            // The waiter's second look at the queue (the one that arms its watch) is never answered, as on
            // a connection that died silently and that the client has not given up yet.
            let looks = 0;
            faulty.after('getChildren', (request) => (request.path === dir && ++looks === 2 ? new Promise(() => undefined) : undefined));
            const holderNode = await queuedIn(observer, dir);
            await withTimeout(assert.rejects(client.acquirePermits(name, { permits: 1, take: 1 }, { waitMs: 200 }), LockTimeoutError), 5000, 'the timeout ends the wait');
            assert.equal(looks, 2, 'the second look was sent');
            assert.deepEqual(await queuedIn(observer, dir), holderNode, 'only the holder\'s node is left');
        }
        finally {
            await held.release();
            await client.close();
        }
    });
    it('a lease create whose reply was lost is found again, not left holding a permit', async () => {
        const faulty = new FaultySession(sessions[7]);
        const client = new LockClient(faulty, { root });
        const name = 'lost-reply';
        const dir = client.pathOf(name, 'semaphore');
        try {
            // The create of our node goes through, but its reply is lost.
            let lost = 0;
            faulty.after('create', (request, outcome) => (request.path.startsWith(`${dir}/_c_`) && outcome.ok && ++lost === 1 ? { ok: false, error: connectionLoss('create', request.path) } : undefined));
            const lease = (await withTimeout(client.acquirePermits(name, { permits: 1, take: 1 }), 10_000, 'granted after the lost reply'));
            assert.equal(lost, 1, 'a reply was lost');
            assert.deepEqual(await queuedIn(observer, dir), [lease.path.slice(dir.length + 1)], 'one node: the one whose reply was lost, adopted');
            await lease.release();
            assert.deepEqual(await queuedIn(observer, dir), [], 'and released');
            const again = await clients[0].acquirePermits(name, { permits: 1, take: 1 }, { waitMs: 0 });
            assert.ok(again?.isHeld, 'the capacity is whole');
            await again.release();
        }
        finally {
            await client.close();
        }
    });
    // Issue 29: the first waiter waits for any change of the queue and reads none of the nodes ahead,
    // so a persistent node named like a semaphore node (made by hand) held its permits for good.
    it('a persistent look-alike among the holders is left out after a quiet session timeout', async () => {
        const session = await openSession(sharedConnect(), 2000);
        try {
            const locks = new LockClient(session, { root: testRoot() });
            const dir = locks.pathOf('by-hand', 'semaphore');
            await ensurePath(session, dir, 'persistent');
            await session.create(`${dir}/_c_${randomUUID()}-1of1-`, null, 'persistent_sequential');
            const lease = await withTimeout(locks.acquirePermits('by-hand', { permits: 1, take: 1 }), 10_000, 'the waiter behind the look-alike was never granted');
            assert.ok(lease.isHeld);
            await lease.release();
        }
        finally {
            session.close();
        }
    });
});
let Exports = class Exports {
    constructor() {
        this.running = 0;
        this.most = 0;
    }
    async run() {
        this.running += 1;
        this.most = Math.max(this.most, this.running);
        await sleep(15);
        this.running -= 1;
    }
};
__decorate([
    WithSemaphore('exports', { permits: 2 }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Exports.prototype, "run", null);
Exports = __decorate([
    Injectable()
], Exports);
describe('LockService.withSemaphore / @WithSemaphore', () => {
    const root = testRoot();
    const suite = lockAppSuite(root, [Exports]);
    it('@WithSemaphore caps the calls at the permits', async () => {
        const exports = suite.app.get(Exports);
        await withTimeout(Promise.all(Array.from({ length: 10 }, () => exports.run())), 20_000, 'every call ends');
        assert.equal(exports.most, 2);
    });
    it('onBusy throw / skip when no permit is free; a nested call re-enters the permits it holds', async () => {
        const { locks } = suite;
        await locks.withSemaphore('busy', { permits: 1 }, async (outer) => {
            // Another call chain (outside this one's context) finds no permit free.
            await assert.rejects(lockContext.exit(() => locks.withSemaphore('busy', { permits: 1, onBusy: 'throw' }, () => undefined)), LockBusyError);
            assert.equal(await lockContext.exit(() => locks.withSemaphore('busy', { permits: 1, onBusy: 'skip' }, () => 'ran')), undefined);
            const nested = await locks.withSemaphore('busy', { permits: 1 }, (inner) => inner);
            assert.equal(nested, outer, 'the nested call runs under the permits held');
        });
    });
    it('refuses bad permits with typed errors', async () => {
        const { locks } = suite;
        await assert.rejects(locks.withSemaphore('bad', { permits: 0 }, () => undefined), InvalidOptionsError);
        await assert.rejects(locks.withSemaphore('bad', { permits: 2, take: 3 }, () => undefined), InvalidOptionsError);
        await assert.rejects(locks.withSemaphore('bad', { permits: 1.5 }, () => undefined), InvalidOptionsError);
        await assert.rejects(locks.withSemaphore('bad', { permits: 2, take: null }, () => undefined), InvalidOptionsError, 'take: null is not the default');
        assert.throws(() => WithSemaphore('bad', { permits: -1 }), InvalidOptionsError);
        // No recovery runs for a semaphore (nor a read/write lock): a handler passed anyway is refused, not ignored.
        const recover = { recover: () => undefined };
        await assert.rejects(locks.withSemaphore('bad', { permits: 1, ...recover }, () => undefined), /withSemaphore runs no recovery/);
        await assert.rejects(locks.withReadLock('bad', () => undefined, recover), /withReadLock runs no recovery/);
        assert.throws(() => WithWriteLock('bad', recover), /@WithWriteLock runs no recovery/);
    });
});
//# sourceMappingURL=semaphore.test.js.map