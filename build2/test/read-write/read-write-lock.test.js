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
 * The read/write lock against the shared ZooKeeper server: readers share, a writer is alone; fair in
 * arrival order (a reader waits for the writers queued before it, never for readers); herd-free (a
 * reader waits for the nearest writer ahead: a head writer leaving wakes one node, not every queued
 * reader); fencing tokens ordered around every write; no node left after a timeout; and the
 * LockService face: re-entrancy, downgrade within a write, upgrade refused, independence from
 * `withLock` of the same name.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Injectable } from '@nestjs/common';
import { WithReadLock, WithWriteLock } from '../../src/decorators/with-read-write-lock.decorator.js';
import { LockTimeoutError } from '../../src/errors/lock-timeout.error.js';
import { LockUpgradeError } from '../../src/errors/lock-upgrade.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { sortQueue } from '../../src/recipes/queue/queue-node.js';
import { withTimeout } from '../support/wait.js';
import { firedWatches, lockAppSuite, lockClientsSuite, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
/** The read/write queue of `dir` as `R`/`W` letters, in grant order. */
async function queueShape(observer, dir) {
    const { children } = await observer.getChildren(dir);
    return sortQueue(children, ['read', 'write'])
        .map((node) => (node.marker === 'read' ? 'R' : 'W'))
        .join('');
}
/** Resolves once `dir`'s queue has `length` nodes. */
async function queued(observer, dir, length) {
    for (let i = 0; i < 500; i += 1) {
        const shape = await queueShape(observer, dir).catch(() => '');
        if (shape.length === length)
            return;
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`the queue of ${dir} never reached ${length} nodes (now ${await queueShape(observer, dir)})`);
}
describe('read/write lock (LockClient)', () => {
    const root = testRoot();
    const suite = lockClientsSuite(root, 8);
    let sessions;
    let clients;
    let observer;
    before(() => ({ sessions, clients, observer } = suite));
    it('readers hold together; a writer waits for them, and readers queued after the writer wait for it', async () => {
        const name = 'shared';
        const dir = clients[0].pathOf(name, 'read');
        const r1 = (await clients[0].acquireRead(name));
        const r2 = (await clients[1].acquireRead(name));
        assert.ok(r1.isHeld && r2.isHeld, 'two readers at once');
        let writer;
        const writing = clients[2].acquireWrite(name).then((lease) => (writer = lease));
        await queued(observer, dir, 3);
        let lateReader;
        const reading = clients[3].acquireRead(name).then((lease) => (lateReader = lease));
        await queued(observer, dir, 4);
        assert.equal(await queueShape(observer, dir), 'RRWR');
        await r1.release();
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.equal(writer, undefined, 'the writer waits for the second reader');
        assert.equal(lateReader, undefined, 'the reader behind the writer waits too (no writer starvation)');
        await r2.release();
        const w = await withTimeout(writing, 5000, 'the writer is granted once the readers are gone');
        assert.ok(w.fencingToken > r1.fencingToken && w.fencingToken > r2.fencingToken, 'the writer fences out every earlier reader');
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.equal(lateReader, undefined, 'no reader while the writer holds');
        await w.release();
        const r3 = await withTimeout(reading, 5000, 'the late reader is granted after the writer');
        assert.ok(r3.fencingToken > w.fencingToken, 'a reader after the writer fences it out');
        await r3.release();
    });
    it('a head writer leaving wakes the one node behind it, not every queued reader (herd-free)', async () => {
        const name = 'herd';
        const dir = clients[0].pathOf(name, 'write');
        const w1 = (await clients[0].acquireWrite(name));
        const w2 = clients[1].acquireWrite(name);
        await queued(observer, dir, 2);
        const readers = clients.slice(2, 7).map((client) => client.acquireRead(name));
        await queued(observer, dir, 7);
        assert.equal(await queueShape(observer, dir), 'WWRRRRR');
        const before = await firedWatches(sharedConnect());
        await w1.release();
        const second = await withTimeout(w2, 5000, 'the second writer is granted');
        await new Promise((resolve) => setTimeout(resolve, 100));
        const afterFirst = await firedWatches(sharedConnect());
        // Curator's readers all watch the first writer: 6 notifications here. Ours watch the nearest one.
        assert.equal(afterFirst - before, 1, 'one notification: the writer right behind');
        await second.release();
        const granted = await withTimeout(Promise.all(readers), 5000, 'every reader is granted after the second writer');
        const afterSecond = await firedWatches(sharedConnect());
        assert.equal(afterSecond - afterFirst, 5, 'each reader is told once, by the writer it waited for');
        await Promise.all(granted.map((lease) => lease.release()));
    });
    it('a reader behind a queue of readers (no writer ahead) holds at once', async () => {
        const name = 'many-readers';
        const leases = await Promise.all(clients.map((client) => client.acquireRead(name, { waitMs: 0 })));
        assert.ok(leases.every((lease) => lease?.isHeld), 'eight readers at once, none queued');
        await Promise.all(leases.map((lease) => lease.release()));
    });
    it('lock events name the read/write lock\'s and the semaphore\'s directories, also for a lease lost at close', async () => {
        const events = [];
        const sink = { wants: () => true, emit: (_channel, event) => void events.push(event) };
        const client = new LockClient(sessions[7], { root, events: sink });
        await client.acquireWrite('evented');
        await client.acquirePermits('evented', { permits: 2, take: 1 });
        await client.close('test over');
        const rw = clients[0].pathOf('evented', 'write');
        const semaphore = clients[0].pathOf('evented', 'semaphore');
        const paths = (type) => events.filter((event) => event.type === type).map((event) => event.path);
        assert.deepEqual(paths('lock.acquired'), [rw, semaphore]);
        assert.deepEqual(paths('lock.lost'), [rw, semaphore], 'revoked at close: the loss names each lock\'s own directory');
    });
    it('gives up after waitMs with no node left behind, and waitMs 0 does not queue', async () => {
        const name = 'timeout';
        const dir = clients[0].pathOf(name, 'read');
        const w = (await clients[0].acquireWrite(name));
        assert.equal(await clients[1].acquireRead(name, { waitMs: 0 }), undefined, 'busy: undefined at once');
        await assert.rejects(clients[1].acquireRead(name, { waitMs: 100 }), LockTimeoutError);
        await assert.rejects(clients[2].acquireWrite(name, { waitMs: 100 }), LockTimeoutError);
        assert.equal(await queueShape(observer, dir), 'W', 'only the holder is left');
        await w.release();
    });
});
let Catalogue = class Catalogue {
    constructor() {
        this.readers = 0;
        this.maxReaders = 0;
        this.writerWithOthers = 0;
        this.writing = false;
    }
    async read(_id) {
        this.readers += 1;
        this.maxReaders = Math.max(this.maxReaders, this.readers);
        if (this.writing)
            this.writerWithOthers += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        this.readers -= 1;
    }
    async write(_id) {
        if (this.readers > 0 || this.writing)
            this.writerWithOthers += 1;
        this.writing = true;
        await new Promise((resolve) => setTimeout(resolve, 10));
        this.writing = false;
    }
};
__decorate([
    WithReadLock((id) => `catalogue:${id}`),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Promise)
], Catalogue.prototype, "read", null);
__decorate([
    WithWriteLock((id) => `catalogue:${id}`),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Promise)
], Catalogue.prototype, "write", null);
Catalogue = __decorate([
    Injectable()
], Catalogue);
describe('LockService.withReadLock / withWriteLock', () => {
    const root = testRoot();
    const suite = lockAppSuite(root, [Catalogue]);
    it('@WithReadLock runs readers together and @WithWriteLock alone', async () => {
        const catalogue = suite.app.get(Catalogue);
        const calls = [];
        for (let i = 0; i < 30; i += 1)
            calls.push(i % 10 === 0 ? catalogue.write('1') : catalogue.read('1'));
        await withTimeout(Promise.all(calls), 20_000, 'every call ends');
        assert.equal(catalogue.writerWithOthers, 0, 'no writer overlapped anyone');
        assert.ok(catalogue.maxReaders > 1, `readers ran together (at most ${catalogue.maxReaders})`);
    });
    it('a write holder reads under its write lock (downgrade in scope): a queued writer never gets in between', async () => {
        const { locks, observer } = suite;
        const dir = `${root}/rwlocks/downgrade`;
        const events = [];
        let queuedWriter;
        await locks.withWriteLock('downgrade', async (write) => {
            // Another application's writer queues behind us (a second client of its own session).
            const other = new LockClient(observer, { root });
            queuedWriter = other.acquireWrite('downgrade').then(async (lease) => {
                events.push('other writer');
                await lease.release();
            });
            await queued(observer, dir, 2);
            await locks.withReadLock('downgrade', async (read) => {
                assert.equal(read, write, 'the read re-enters the write lease');
                events.push('reading');
                await new Promise((resolve) => setTimeout(resolve, 100));
                events.push('read done');
            });
            assert.equal(await queueShape(observer, dir), 'WW', 'no read node was queued behind the writer');
        });
        await withTimeout(queuedWriter, 5000, 'the queued writer gets the lock after us');
        assert.deepEqual(events, ['reading', 'read done', 'other writer']);
    });
    it('a read holder asking for the write lock is refused at once (it would wait for itself)', async () => {
        const { locks } = suite;
        await locks.withReadLock('upgrade', async () => {
            await assert.rejects(locks.withWriteLock('upgrade', async () => undefined), LockUpgradeError);
            // A read within a read re-enters: no second node behind a writer that may have queued.
            await locks.withReadLock('upgrade', async () => undefined);
        });
    });
    it('is independent of withLock of the same name', async () => {
        const { locks } = suite;
        await locks.withLock('same-name', async () => {
            await withTimeout(locks.withWriteLock('same-name', async () => 'written', { waitMs: 2000 }), 3000, 'the write lock of the same name is another lock');
        });
    });
});
//# sourceMappingURL=read-write-lock.test.js.map