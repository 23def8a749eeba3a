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
 * `LockService.withLocks` and `@WithLocks` against the shared ZooKeeper server: every lock of a set
 * taken in one canonical order and released in reverse; two applications (two sessions, as two
 * processes would be) asking again and again for overlapping sets in opposite orders never
 * deadlock and never share a lock; all or nothing under a timeout, an abort and a busy lock (the
 * locks already taken are released, no node is left queued); out-of-order nesting refused.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable } from '@nestjs/common';
import { WithLocks } from '../../src/decorators/with-locks.decorator.js';
import { InvalidLockNameError } from '../../src/errors/invalid-lock-name.error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { LockAbortedError } from '../../src/errors/lock-aborted.error.js';
import { LockBusyError } from '../../src/errors/lock-busy.error.js';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { LockOrderError } from '../../src/errors/lock-order.error.js';
import { LockTimeoutError } from '../../src/errors/lock-timeout.error.js';
import { ZkLockEvents } from '../../src/observability/zk-lock-events.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { expireBehindProxy, openSession, queueNodes, sharedConnect, startLockApp, testRoot } from './lock-test-kit.js';
const root = testRoot();
let Transfers = class Transfers {
    constructor(locks) {
        this.locks = locks;
        this.seen = [];
    }
    async transfer(from, to) {
        this.seen.push({ from: this.locks.current(`account:${from}`)?.fencingToken, to: this.locks.current(`account:${to}`)?.fencingToken });
    }
};
__decorate([
    WithLocks((from, to) => [`account:${from}`, `account:${to}`], { waitMs: 5000 }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String]),
    __metadata("design:returntype", Promise)
], Transfers.prototype, "transfer", null);
Transfers = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [LockService])
], Transfers);
/** Holds `name` through `locks` (its own call chain) until the returned function is called. */
async function holdElsewhere(locks, name) {
    let release;
    const released = new Promise((resolve) => (release = resolve));
    let holding;
    const held = new Promise((resolve) => (holding = resolve));
    const call = locks.withLock(name, async () => {
        holding();
        await released;
    });
    await held;
    return async () => {
        release();
        await call;
    };
}
describe('LockService.withLocks', () => {
    let appA;
    let appB;
    let locksA;
    let locksB;
    let observer;
    before(async () => {
        const options = { connect: sharedConnect(), root, sessionTimeoutMs: 4000 };
        appA = await startLockApp(options, [Transfers]);
        appB = await startLockApp(options, []);
        locksA = appA.get(LockService);
        locksB = appB.get(LockService);
        observer = await openSession(sharedConnect());
    });
    after(async () => {
        await appA?.close();
        await appB?.close();
        observer?.close();
    });
    const queued = async (name) => (await queueNodes(observer, `${root}/locks/${name}`)).length;
    it('takes the set in canonical order, gives fn the locks in the order asked, releases in reverse', async () => {
        const events = [];
        const subscription = appA.get(ZkLockEvents).events$.subscribe((event) => {
            if (event.type === 'lock.acquired' || event.type === 'lock.released')
                events.push(`${event.type.slice(5)} ${event.name}`);
        });
        try {
            const result = await locksA.withLocks(['set-c', 'set-a', 'set-b'], async (held) => {
                assert.deepEqual(held.map((lock) => lock.name), ['set-c', 'set-a', 'set-b']);
                assert.ok(held.every((lock) => typeof lock.fencingToken === 'bigint' && !lock.signal.aborted));
                assert.deepEqual(await Promise.all(['set-a', 'set-b', 'set-c'].map(queued)), [1, 1, 1], 'every lock held in ZooKeeper');
                return 'done';
            });
            assert.equal(result, 'done');
        }
        finally {
            subscription.unsubscribe();
        }
        assert.deepEqual(events, ['acquired set-a', 'acquired set-b', 'acquired set-c', 'released set-c', 'released set-b', 'released set-a']);
    });
    it('never deadlocks nor overlaps: two applications asking for overlapping sets in opposite orders', async () => {
        const inUse = new Map();
        let overlaps = 0;
        let runs = 0;
        const work = async (held) => {
            for (const { name } of held) {
                const count = (inUse.get(name) ?? 0) + 1;
                inUse.set(name, count);
                if (count > 1)
                    overlaps++;
            }
            await new Promise((resolve) => setImmediate(resolve));
            for (const { name } of held)
                inUse.set(name, inUse.get(name) - 1);
            runs++;
        };
        const sets = [
            ['dl-x', 'dl-y'],
            ['dl-y', 'dl-x'],
            ['dl-y', 'dl-z', 'dl-x'],
            ['dl-z', 'dl-x'],
        ];
        const chain = (locks, offset) => (async () => {
            for (let i = 0; i < 15; i++)
                await locks.withLocks(sets[(i + offset) % sets.length], work);
        })();
        // 4 chains per application, each taking its sets in another rotation: without the canonical
        // order, x-then-y against y-then-x deadlocks within a few rounds.
        await withTimeout(Promise.all([0, 1, 2, 3].flatMap((offset) => [chain(locksA, offset), chain(locksB, offset + 1)])), 60_000, 'the chains deadlocked');
        assert.equal(runs, 120);
        assert.equal(overlaps, 0);
        assert.deepEqual(await Promise.all(['dl-x', 'dl-y', 'dl-z'].map(queued)), [0, 0, 0]);
    });
    it('is all or nothing under a timeout, an abort and a busy lock: what it took is released, nothing stays queued', async () => {
        const release = await holdElsewhere(locksB, 'aon-b');
        try {
            let ran = false;
            const run = () => void (ran = true);
            await assert.rejects(locksA.withLocks(['aon-a', 'aon-b', 'aon-c'], run, { waitMs: 200 }), (error) => {
                assert.ok(error instanceof LockTimeoutError);
                assert.equal(error.waitMs, 200, "the set's budget");
                assert.equal(error.lockPath, `${root}/locks/aon-b`, 'the lock not granted');
                return true;
            });
            const aborter = new AbortController();
            const aborted = locksA.withLocks(['aon-a', 'aon-b'], run, { signal: aborter.signal });
            setTimeout(() => aborter.abort(new Error('the caller gave up')), 100);
            await assert.rejects(aborted, LockAbortedError);
            await assert.rejects(locksA.withLocks(['aon-a', 'aon-b'], run, { onBusy: 'throw' }), LockBusyError);
            assert.equal(await locksA.withLocks(['aon-a', 'aon-b'], run, { onBusy: 'skip' }), undefined);
            assert.equal(ran, false);
            assert.deepEqual([await queued('aon-a'), await queued('aon-b'), await queued('aon-c')], [0, 1, 0], 'only the other holder is left');
        }
        finally {
            await release();
        }
    });
    it('re-enters what the chain holds, and refuses to take a lock out of order', async () => {
        await locksA.withLock('order-a', () => locksA.withLocks(['order-a', 'order-b'], (held) => {
            assert.deepEqual(held.map((lock) => lock.name), ['order-a', 'order-b']);
            assert.equal(held[0], locksA.current('order-a'), 'the same lease, re-entered');
        }));
        await locksA.withLock('order-b', async () => {
            await assert.rejects(locksA.withLocks(['order-a', 'order-b'], () => undefined), (error) => {
                assert.ok(error instanceof LockOrderError);
                assert.deepEqual([error.lockName, error.heldName], ['order-a', 'order-b']);
                return true;
            });
            assert.equal(await queued('order-a'), 0, 'refused before taking anything');
            await locksA.withLocks(['order-b', 'order-c'], () => undefined); // after what it holds: fine
        });
    });
    it('refuses bad names and options, typed, before taking anything', async () => {
        await assert.rejects(locksA.withLocks([], () => undefined), InvalidOptionsError);
        await assert.rejects(locksA.withLocks(['v-a', 'v-a'], () => undefined), /named twice/);
        await assert.rejects(locksA.withLocks(['v-a', 'v/b'], () => undefined), InvalidLockNameError);
        await assert.rejects(locksA.withLocks(['v-a'], () => undefined, { recover: () => undefined }), /withLocks runs no recovery/);
        await assert.rejects(locksA.withLocks(['v-a'], () => undefined, { waitMs: -1 }), InvalidOptionsError);
        assert.equal(await queued('v-a'), 0);
    });
    it('@WithLocks holds both accounts of a transfer, named from the arguments', async () => {
        const transfers = appA.get(Transfers);
        await Promise.all([transfers.transfer('1', '2'), transfers.transfer('2', '1')]);
        assert.equal(transfers.seen.length, 2);
        for (const { from, to } of transfers.seen)
            assert.ok(typeof from === 'bigint' && typeof to === 'bigint');
        assert.throws(() => WithLocks(['ok', 'not/ok']), InvalidLockNameError);
    });
});
describe('LockService.withLocks when the session expires while a later lock is awaited', () => {
    it('never runs fn on a set whose first lock went with the expired session', async () => {
        const root = testRoot();
        const [host, port] = sharedConnect().split(':');
        const proxy = await TcpProxy.start(host, Number(port));
        const options = { root, sessionTimeoutMs: 4000 };
        const app = await startLockApp({ ...options, connect: proxy.connectString }, []);
        const other = await startLockApp({ ...options, connect: sharedConnect() }, []);
        const observer = await openSession(sharedConnect());
        const session = app.get(ZkSession);
        const queued = async (name) => (await queueNodes(observer, `${root}/locks/${name}`)).length;
        try {
            const releaseB = await holdElsewhere(other.get(LockService), 'exp-b');
            let ran = false;
            const call = app.get(LockService).withLocks(['exp-a', 'exp-b'], () => void (ran = true));
            call.catch(() => undefined); // awaited below
            await waitFor(async () => (await queued('exp-a')) === 1 && (await queued('exp-b')) === 2, { message: 'exp-a held, exp-b awaited' });
            const first = session.sessionId;
            await expireBehindProxy(proxy, sharedConnect(), session);
            await waitFor(() => session.state === 'connected' && session.sessionId !== first, { message: 'the replacement session' });
            // exp-a went with the old session; the wait for exp-b queued again on the new one.
            await waitFor(async () => (await queued('exp-a')) === 0 && (await queued('exp-b')) === 2, { message: 'exp-b awaited on the new session' });
            await releaseB();
            await assert.rejects(withTimeout(call, 10_000, 'the set call never settled'), LockLostError);
            assert.equal(ran, false, 'fn ran although exp-a was lost');
            assert.deepEqual([await queued('exp-a'), await queued('exp-b')], [0, 0]);
        }
        finally {
            await app.close();
            await other.close();
            observer.close();
            await proxy.close();
        }
    });
});
//# sourceMappingURL=multi-lock.test.js.map