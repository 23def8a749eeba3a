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
 * `nestjs-zk-lock/testing`: a sample application service that uses @WithLock, LockService,
 * @LeaderOnly and @OnLeaderRecovery, unit-tested the way a user would, through
 * `Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot()] })`, with no ZooKeeper
 * server: the last test proves that every session connected to the simulated server and that the
 * native client never loaded.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { DecoratorMisuseError, InvalidOptionsError, LeaderOnly, LeaderService, LeadershipLostError, LockAbortedError, LockBusyError, LockLostError, LockService, LockTimeoutError, OnLeaderRecovery, RecoveryFailedError, WithLock, ZkLockEvents, ZkLockModule, ZkSession, } from '../../src/index.js';
import { ZkLockTesting, ZkLockTestingModule } from '../../src/testing/index.js';
import { loadNativeZooKeeper } from '../../src/zookeeper/native-binding.js';
// Installed before any test: sees every session connect (all of them to the simulated server).
const connects = mock.method(ZkSession.prototype, 'connect');
/** A promise the test resolves when it wants: holds a locked call open at a known point. */
class Gate {
    constructor() {
        this.promise = new Promise((resolve) => (this.open = resolve));
    }
}
let SampleService = class SampleService {
    constructor(locks, leader) {
        this.locks = locks;
        this.leader = leader;
        this.journal = [];
        this.importRecoveries = [];
        this.leaderRecoveries = [];
        this.failLeaderRecovery = 0;
        this.running = 0;
        this.maxRunning = 0;
    }
    /** Per-invoice lock; `gate` keeps the call inside its section until the test opens it. */
    async settle(invoice, label, gate) {
        this.running++;
        this.maxRunning = Math.max(this.maxRunning, this.running);
        this.journal.push(`start ${label}`);
        await gate?.promise;
        this.journal.push(`end ${label}`);
        this.running--;
        return this.locks.current().fencingToken;
    }
    async nightly() {
        this.journal.push('nightly ran');
        return 'ran';
    }
    async nightlyOrThrow() {
        return 'ran';
    }
    /** Guarded: checkpoints after each file; `failAt` throws mid-way, `gate` pauses after the first file. */
    async importAll(files, options = {}) {
        const lock = this.locks.current();
        for (const [i] of files.entries()) {
            if (i === options.failAt)
                throw new Error(`file ${files[i]} is broken`);
            await lock.checkpoint({ done: i + 1 });
            if (i === 0 && options.gate) {
                this.journal.push('import paused');
                await options.gate.promise;
            }
        }
        return files.length;
    }
    async resumeImport(interrupted) {
        this.importRecoveries.push(interrupted);
    }
    /** `LockService.withLock` directly, re-entering the same lock in a nested call. */
    async transfer(account, options = {}) {
        return this.locks.withLock(`account:${account}`, async (outer) => {
            await options.gate?.promise;
            const inner = await this.locks.withLock(`account:${account}`, (lock) => lock.fencingToken);
            return [outer.fencingToken, inner];
        }, { waitMs: options.waitMs, signal: options.signal });
    }
    async rollUp(gate) {
        const section = this.leader.current();
        await section.checkpoint({ shard: 1 });
        if (gate) {
            this.journal.push('rollUp paused');
            await gate.promise;
        }
        return section.token;
    }
    async resumeRollUp(interrupted) {
        if (this.failLeaderRecovery-- > 0)
            throw new Error('repair failed');
        this.leaderRecoveries.push({ interrupted, leadingAtTheTime: this.leader.isLeader });
    }
};
__decorate([
    WithLock((invoice) => `invoice:${invoice}`),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String, Gate]),
    __metadata("design:returntype", Promise)
], SampleService.prototype, "settle", null);
__decorate([
    WithLock('nightly', { onBusy: 'skip' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], SampleService.prototype, "nightly", null);
__decorate([
    WithLock('nightly', { onBusy: 'throw' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], SampleService.prototype, "nightlyOrThrow", null);
__decorate([
    WithLock('import', { recover: 'resumeImport' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Array, Object]),
    __metadata("design:returntype", Promise)
], SampleService.prototype, "importAll", null);
__decorate([
    LeaderOnly(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Gate]),
    __metadata("design:returntype", Promise)
], SampleService.prototype, "rollUp", null);
__decorate([
    OnLeaderRecovery(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], SampleService.prototype, "resumeRollUp", null);
SampleService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [LockService,
        LeaderService])
], SampleService);
/** An application module as users write it: overridden below, it never connects to this address. */
const zkLockModule = ZkLockModule.forRoot({ connect: '127.0.0.1:1', connectTimeoutMs: 1000 });
let AppModule = class AppModule {
};
AppModule = __decorate([
    Module({ imports: [zkLockModule], providers: [SampleService] })
], AppModule);
let moduleRef;
let service;
let testing;
beforeEach(async () => {
    moduleRef = await Test.createTestingModule({
        imports: [ZkLockTestingModule.forRoot({ identity: 'unit-test' })],
        providers: [SampleService],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init(); // discovers @OnLeaderRecovery, as application start-up does
    service = moduleRef.get(SampleService);
    testing = moduleRef.get(ZkLockTesting);
});
afterEach(async () => {
    await moduleRef.close();
});
describe('ZkLockTestingModule: locks', () => {
    it('serializes concurrent @WithLock calls on one name in call order, with increasing fencing tokens', async () => {
        const gates = [new Gate(), new Gate(), new Gate()];
        const calls = gates.map((gate, i) => service.settle('7', `#${i}`, gate));
        // The others' queue nodes land a round trip or two after the first was granted, as on a server.
        await waitForMicrotasks(() => service.journal.includes('start #0') && testing.lockState('invoice:7').waiting === 2);
        const other = await service.settle('8', 'other invoice'); // another name is independent
        assert.equal(typeof other, 'bigint');
        // Opened in reverse: FIFO, not gate order, decides who runs next.
        gates[2].open();
        gates[1].open();
        gates[0].open();
        const tokens = await Promise.all(calls);
        assert.deepEqual(service.journal, ['start #0', 'start other invoice', 'end other invoice', 'end #0', 'start #1', 'end #1', 'start #2', 'end #2']);
        assert.equal(service.maxRunning, 2, 'only the two different invoices ever overlapped');
        assert.ok(tokens[0] < tokens[1] && tokens[1] < tokens[2], `tokens increase: ${tokens.join(' < ')}`);
        assert.deepEqual(testing.lockState('invoice:7'), { held: false, token: undefined, waiting: 0 });
    });
    it('is re-entrant within one call chain, while a concurrent flow waits', async () => {
        const gate = new Gate();
        const first = service.transfer('a', { gate });
        const second = service.transfer('a');
        await waitForMicrotasks(() => testing.lockState('account:a').waiting === 1); // the concurrent flow queues
        gate.open();
        const [outer, inner] = await first;
        assert.equal(inner, outer, 'the nested withLock ran under the same lease');
        const [outerAgain] = await second;
        assert.ok(outerAgain > outer);
        assert.equal(service.locks.current(), undefined, 'nothing is held outside a locked call');
    });
    it('applies onBusy, waitMs and signal while the lock is held elsewhere', async () => {
        const lease = await service.locks.acquire('nightly');
        assert.equal(await service.nightly(), undefined, "onBusy 'skip' returns undefined");
        assert.ok(!service.journal.includes('nightly ran'), 'and does not run the method');
        await assert.rejects(service.nightlyOrThrow(), LockBusyError);
        assert.equal(await service.locks.tryAcquire('nightly'), undefined);
        await assert.rejects(service.locks.withLock('nightly', () => 'ran', { waitMs: 20 }), LockTimeoutError);
        const controller = new AbortController();
        const aborted = service.locks.withLock('nightly', () => 'ran', { signal: controller.signal });
        controller.abort(new Error('no longer needed'));
        await assert.rejects(aborted, LockAbortedError);
        assert.equal(testing.lockState('nightly').waiting, 0, 'timed-out and aborted waiters left the queue');
        await lease.release();
        assert.equal(await service.nightly(), 'ran');
    });
    it('runs the recovery handler once before the next guarded call after a staged interruption', async () => {
        const interrupted = await testing.interruptLock('import', { checkpoint: { done: 2 }, holder: 'crashed-pod' });
        assert.equal(await service.importAll(['a', 'b', 'c']), 3);
        assert.deepEqual(service.importRecoveries, [interrupted]);
        assert.equal(interrupted.holder, 'crashed-pod');
        assert.deepEqual(interrupted.checkpoint, { done: 2 });
        await service.importAll(['a']);
        assert.equal(service.importRecoveries.length, 1, 'a completed call leaves nothing to recover');
    });
    it('a call that throws, or loses its lock mid-section, is recovered by the next holder with its last checkpoint', async () => {
        await assert.rejects(service.importAll(['a', 'b', 'c'], { failAt: 2 }), /file c is broken/);
        await service.importAll(['a']);
        assert.equal(service.importRecoveries.length, 1);
        assert.deepEqual(service.importRecoveries[0].checkpoint, { done: 2 });
        assert.equal(service.importRecoveries[0].holder, 'unit-test');
        const gate = new Gate();
        const losing = service.importAll(['a', 'b'], { gate });
        const next = service.importAll(['x']); // queues behind the doomed holder
        await waitForMicrotasks(() => service.journal.includes('import paused') && testing.lockState('import').waiting === 1);
        assert.equal(await testing.loseLock('import', 'session expired (staged)'), 1);
        gate.open();
        await assert.rejects(losing, LockLostError);
        assert.equal(await next, 1);
        assert.equal(service.importRecoveries.length, 2);
        assert.deepEqual(service.importRecoveries[1].checkpoint, { done: 1 }, 'the lost holder checkpointed one file');
    });
});
describe('ZkLockTestingModule: leadership', () => {
    it('isLeader$ follows setLeader, and @LeaderOnly runs or skips accordingly', async () => {
        const seen = [];
        const subscription = service.leader.isLeader$.subscribe((leading) => seen.push(leading));
        assert.equal(await service.rollUp(), undefined, 'a follower skips');
        await testing.setLeader(true);
        const token = await service.rollUp();
        assert.equal(typeof token, 'bigint');
        assert.equal(service.leader.election().token, token);
        assert.deepEqual(await service.leader.participants(), ['unit-test']);
        await testing.setLeader(false);
        assert.equal(await service.rollUp(), undefined);
        await testing.setLeader(true);
        assert.ok((await service.rollUp()) > token, 'a new leadership has a newer token');
        subscription.unsubscribe();
        assert.deepEqual(seen, [false, true, false, true]);
    });
    it('losing leadership aborts a running @LeaderOnly section with LeadershipLostError, and the next leader recovers it', async () => {
        await testing.setLeader(true);
        const gate = new Gate();
        const running = service.rollUp(gate);
        await waitForMicrotasks(() => service.journal.includes('rollUp paused'));
        assert.equal(service.leader.current(), undefined, 'the section is reachable only inside its call chain');
        await testing.setLeader(false);
        gate.open();
        await assert.rejects(running, LeadershipLostError);
        await testing.setLeader(true);
        assert.equal(service.leaderRecoveries.length, 1);
        assert.deepEqual(service.leaderRecoveries[0].interrupted.checkpoint, { shard: 1 });
        assert.equal(service.leaderRecoveries[0].leadingAtTheTime, false, 'recovery runs before leadership is reported');
    });
    it('a staged dead leader is recovered before isLeader$ emits true; a failing handler keeps leadership unreported', async () => {
        const interrupted = await testing.interruptLeader({ checkpoint: { shard: 9 } });
        service.failLeaderRecovery = 1;
        await assert.rejects(testing.setLeader(true), RecoveryFailedError);
        assert.equal(service.leader.isLeader, false);
        assert.equal(await service.rollUp(), undefined);
        await testing.setLeader(true); // retried: succeeds now
        assert.deepEqual(service.leaderRecoveries, [{ interrupted, leadingAtTheTime: false }]);
        assert.equal(service.leader.isLeader, true);
        await assert.rejects(testing.interruptLeader(), /setLeader\(false\) first/);
        await testing.setLeader(false);
        await testing.setLeader(true);
        assert.equal(service.leaderRecoveries.length, 1, 'recovered exactly once');
    });
    it('a recovery that keeps failing: setLeader rejects, and closing the module meanwhile leaves nothing pending', async () => {
        await testing.interruptLeader({ checkpoint: { shard: 1 } });
        service.failLeaderRecovery = Infinity;
        await assert.rejects(testing.setLeader(true), RecoveryFailedError);
        await moduleRef.close(); // the election stops retrying; the rejected call left no listener behind
        assert.equal(service.leader.isLeader, false);
    });
    it('named elections are driven separately', async () => {
        await testing.setLeader(true, 'reports');
        assert.equal(service.leader.election('reports').isLeader, true);
        assert.equal(service.leader.isLeader, false, 'the default election is another one');
    });
});
describe('ZkLockTestingModule: the rest of the surface', () => {
    it('emits lock and leadership events on ZkLockEvents', async () => {
        const events = [];
        const subscription = moduleRef.get(ZkLockEvents).events$.subscribe((event) => events.push(event));
        await service.settle('1', 'evented');
        await testing.setLeader(true);
        await testing.setLeader(false);
        subscription.unsubscribe();
        assert.deepEqual(events.map((event) => event.type), ['lock.wait-started', 'lock.acquired', 'lock.released', 'leadership.gained', 'leadership.lost']);
    });
    it('replaces ZkLockModule inside an application module (overrideModule with the same forRoot() object)', async () => {
        const app = await Test.createTestingModule({ imports: [AppModule] })
            .overrideModule(zkLockModule)
            .useModule(ZkLockTestingModule.forRoot())
            .compile();
        try {
            await app.init();
            await app.get(ZkLockTesting).setLeader(true);
            assert.equal(typeof (await app.get(SampleService).rollUp()), 'bigint');
            assert.equal(typeof (await app.get(SampleService).settle('1', 'in the app module')), 'bigint');
        }
        finally {
            await app.close();
        }
    });
    it('validates its options like ZkLockModule does', () => {
        assert.throws(() => ZkLockTestingModule.forRoot({ identity: '' }), (error) => error instanceof InvalidOptionsError && error.field === 'identity');
        assert.throws(() => ZkLockTestingModule.forRoot({ election: { name: 'a/b' } }), (error) => error instanceof InvalidOptionsError && error.field === 'election.name');
        assert.throws(() => ZkLockTestingModule.forRoot({ drainTimeoutMs: -1 }), InvalidOptionsError);
    });
    it('the decorators still refuse a stand-in that is not the real LockService / LeaderService', async () => {
        const fake = await Test.createTestingModule({
            providers: [
                SampleService,
                { provide: LockService, useValue: { withLock: async (_, fn) => fn() } },
                { provide: LeaderService, useValue: { election: () => ({ isLeader: true }) } },
            ],
        }).compile();
        try {
            await assert.rejects(fake.get(SampleService).settle('1', 'fake'), DecoratorMisuseError);
            await assert.rejects(fake.get(SampleService).rollUp(), DecoratorMisuseError);
            assert.deepEqual(fake.get(SampleService).journal, [], 'nothing ran unlocked');
        }
        finally {
            await fake.close();
        }
    });
    it('no test in this file connected to a ZooKeeper server or loaded the native client', () => {
        const require = createRequire(import.meta.url);
        const nativeLoaded = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/zookeeper/'));
        assert.ok(connects.mock.callCount() > 0, 'the sessions connect (to the simulated server)');
        for (const call of connects.mock.calls)
            assert.equal(call.this.connectString, 'zk1.sim:2181');
        assert.equal(nativeLoaded(), false, 'the zookeeper package was loaded');
        loadNativeZooKeeper(); // the check above can see a load: prove it
        assert.equal(nativeLoaded(), true);
    });
});
/** Lets pending promise callbacks run until `condition` holds (bounded: 100 turns). */
async function waitForMicrotasks(condition) {
    for (let turn = 0; turn < 100; turn++) {
        if (condition())
            return;
        await new Promise((resolve) => setImmediate(resolve));
    }
    assert.fail('condition not reached');
}
//# sourceMappingURL=zk-lock-testing.test.js.map