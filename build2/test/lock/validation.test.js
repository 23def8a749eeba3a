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
 * Invariant 7: bad lock names, bad options and misused decorators fail fast with a typed error
 * naming the problem, before anything reaches ZooKeeper, and never run the locked body.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { describe, it } from 'node:test';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import { WithSemaphore } from '../../src/decorators/with-semaphore.decorator.js';
import { DecoratorMisuseError } from '../../src/errors/decorator-misuse.error.js';
import { InvalidLockNameError } from '../../src/errors/invalid-lock-name.error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { withTimeout } from '../support/wait.js';
import { lockAppSuite, testRoot } from './lock-test-kit.js';
const BAD_NAMES = [
    ['empty', ''],
    ['a slash', 'a/b'],
    ['"."', '.'],
    ['".."', '..'],
    ['a NUL', 'a\u0000b'],
    ['a newline', 'a\nb'],
    ['a DEL', 'a\u007fb'],
    ['201 characters', 'x'.repeat(201)],
    ['a number', 42],
    ['undefined', undefined],
    ['an object', { name: 'x' }],
];
let bodyRuns = 0;
let Guarded = class Guarded {
    async perOrder(_id) {
        bodyRuns += 1;
        return 'ran';
    }
    async plain() {
        bodyRuns += 1;
        return 'ran';
    }
};
__decorate([
    WithLock((id) => `order:${String(id)}`),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], Guarded.prototype, "perOrder", null);
__decorate([
    WithLock('plain'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Guarded.prototype, "plain", null);
Guarded = __decorate([
    Injectable()
], Guarded);
describe('bad input fails fast with typed errors', () => {
    const root = testRoot();
    const suite = lockAppSuite(root, [Guarded]);
    it('InvalidLockNameError for every bad name, from acquire, tryAcquire, withLock and @WithLock', async () => {
        for (const [what, name] of BAD_NAMES) {
            const named = (error) => error instanceof InvalidLockNameError && error.lockName === name;
            await assert.rejects(suite.locks.acquire(name), named, `acquire: ${what}`);
            await assert.rejects(suite.locks.tryAcquire(name), named, `tryAcquire: ${what}`);
            await assert.rejects(suite.locks.withLock(name, () => void (bodyRuns += 1)), named, `withLock: ${what}`);
            if (typeof name === 'string')
                assert.throws(() => WithLock(name), named, `@WithLock: ${what}`);
        }
        // A name computed from the arguments is validated per call.
        await assert.rejects(suite.app.get(Guarded).perOrder('a/b'), InvalidLockNameError);
        assert.equal(await suite.app.get(Guarded).perOrder(7), 'ran');
        assert.equal(bodyRuns, 1, 'no body ran for a bad name');
        assert.equal(await suite.observer.exists(`${root}/locks`).then((stat) => stat?.numChildren), 1, 'only order:7 reached ZooKeeper');
    });
    it('accepts names at the edges: 200 characters, unicode, colons', async () => {
        for (const name of ['x'.repeat(200), 'zählung-é-✓', 'order:123', '...']) {
            assert.equal(await suite.locks.withLock(name, () => 'ok', { onBusy: 'throw' }), 'ok', name);
        }
    });
    it('InvalidOptionsError naming the field for bad waitMs, onBusy, recover and signal', async () => {
        const cases = [
            ['waitMs', { waitMs: -1 }],
            ['waitMs', { waitMs: Number.NaN }],
            ['waitMs', { waitMs: '100' }],
            ['onBusy', { onBusy: 'maybe' }],
            ['recover', { recover: 'repair' }],
            ['signal', { signal: { aborted: false } }],
        ];
        for (const [field, options] of cases) {
            const named = (error) => error instanceof InvalidOptionsError && error.field === field;
            await assert.rejects(suite.locks.withLock('plain', () => void (bodyRuns += 1), options), named, `withLock ${JSON.stringify(options)}`);
            if (field === 'waitMs' || field === 'signal')
                await assert.rejects(suite.locks.acquire('plain', options), named, `acquire ${JSON.stringify(options)}`);
        }
        await assert.rejects(suite.locks.acquire('plain', null), InvalidOptionsError);
        // @WithLock checks its options when the class is defined, not at the first call.
        assert.throws(() => WithLock('plain', { onBusy: 'maybe' }), (error) => error instanceof InvalidOptionsError && error.field === 'onBusy');
        assert.throws(() => WithLock('plain', { waitMs: -5 }), (error) => error instanceof InvalidOptionsError && error.field === 'waitMs');
        assert.equal(bodyRuns, 1);
    });
    it('InvalidOptionsError for an unknown option of a call or a decorator, naming the key and the nearest known one', async () => {
        const unknown = (field, message) => (error) => error instanceof InvalidOptionsError && error.field === field && message.test(error.message);
        await assert.rejects(suite.locks.withLock('plain', () => void (bodyRuns += 1), { waitMS: 5 }), unknown('waitMS', /unknown option 'waitMS'; did you mean 'waitMs'\?/));
        await assert.rejects(suite.locks.withLock('plain', () => void (bodyRuns += 1), { onbusy: 'skip' }), unknown('onbusy', /did you mean 'onBusy'\?/));
        // acquire has no onBusy: a caller who passes it expects a try-once, and would wait instead.
        await assert.rejects(suite.locks.acquire('plain', { onBusy: 'skip' }), unknown('onBusy', /unknown option 'onBusy'; known options: waitMs, signal/));
        await assert.rejects(suite.locks.withReadLock('plain', () => void (bodyRuns += 1), { timeoutMs: 5 }), unknown('timeoutMs', /unknown option 'timeoutMs'/));
        await assert.rejects(suite.locks.withLocks(['a', 'b'], () => void (bodyRuns += 1), { waitms: 5 }), unknown('waitms', /did you mean 'waitMs'\?/));
        await assert.rejects(suite.locks.withSemaphore('s', { permits: 2, tak: 1 }, () => void (bodyRuns += 1)), unknown('tak', /did you mean 'take'\?/));
        await assert.rejects(suite.locks.acquireSemaphore('s', { permits: 2, takes: 1 }), unknown('takes', /did you mean 'take'\?/));
        const client = new LockClient(suite.observer, { root });
        await assert.rejects(client.acquire('plain', { waitMS: 5 }), unknown('waitMS', /did you mean 'waitMs'\?/), 'LockClient.acquire');
        await assert.rejects(client.acquireWrite('plain', { onBusy: 'skip' }), unknown('onBusy', /known options: waitMs, signal/), 'LockClient.acquireWrite');
        await assert.rejects(client.acquirePermits('s', { permits: 2, take: 1 }, { wait: 5 }), unknown('wait', /did you mean 'waitMs'\?/), 'LockClient.acquirePermits');
        assert.throws(() => WithLock('plain', { onbusy: 'skip' }), unknown('onbusy', /did you mean 'onBusy'\?/), '@WithLock, when the class is defined');
        assert.throws(() => WithSemaphore('s', { permits: 2, onBusy: 'skip', waitMS: 5 }), unknown('waitMS', /did you mean 'waitMs'\?/), '@WithSemaphore');
        assert.equal(await suite.locks.withSemaphore('s', { permits: 2, take: 1, onBusy: 'skip', waitMs: 100 }, () => 'ok'), 'ok', 'every known option of a semaphore call');
        assert.equal(bodyRuns, 1);
    });
    it('waitMs above 2^31-1 ms (the longest timer Node keeps) is refused, not timed out after 1 ms; Infinity waits without bound', async () => {
        const held = await suite.locks.acquire('held-long');
        try {
            const tooLong = (error) => {
                assert.ok(error instanceof InvalidOptionsError, `expected InvalidOptionsError, got ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
                assert.equal(error.field, 'waitMs');
                assert.match(error.message, /2147483648/, 'names the value');
                assert.match(error.message, /2147483647/, 'names the maximum');
                return true;
            };
            const waitMs = 2 ** 31;
            // Bounded by 2 s: the call must settle at once either way (refused now; timed out after 1 ms before).
            await assert.rejects(withTimeout(suite.locks.acquire('held-long', { waitMs }), 2000, 'acquire waited'), tooLong, 'acquire');
            await assert.rejects(withTimeout(suite.locks.withLock('held-long', () => void (bodyRuns += 1), { waitMs }), 2000, 'withLock waited'), tooLong, 'withLock');
            await assert.rejects(withTimeout(new LockClient(suite.observer, { root }).acquire('held-long', { waitMs }), 2000, 'LockClient waited'), tooLong, 'LockClient.acquire');
            assert.throws(() => WithLock('held-long', { waitMs }), tooLong, '@WithLock, when the class is defined');
            assert.equal(await suite.locks.withLock('free-long', () => 'ok', { waitMs: 2 ** 31 - 1 }), 'ok', 'the maximum itself is fine');
            assert.equal(await suite.locks.withLock('free-long', () => 'ok', { waitMs: Number.POSITIVE_INFINITY }), 'ok', 'Infinity: no bound');
        }
        finally {
            await held.release();
        }
        assert.equal(bodyRuns, 1);
    });
    it('DecoratorMisuseError for a static method, a property, a getter, and recover naming a non-method', () => {
        const misuse = (problem) => (error) => error instanceof DecoratorMisuseError && problem.test(error.message);
        assert.throws(() => {
            class StaticJob {
                static run() { }
            }
            __decorate([
                WithLock('job'),
                __metadata("design:type", Function),
                __metadata("design:paramtypes", []),
                __metadata("design:returntype", void 0)
            ], StaticJob, "run", null);
            return StaticJob;
        }, misuse(/StaticJob\.run.*static/));
        class Fields {
            constructor() {
                this.count = 0;
                this.notAMethod = 'x';
            }
            get total() { return this.count; }
            run() { }
        }
        assert.throws(() => Reflect.decorate([WithLock('job')], Fields.prototype, 'count', undefined), misuse(/Fields\.count.*only methods/));
        assert.throws(() => Reflect.decorate([WithLock('job')], Fields.prototype, 'total', Object.getOwnPropertyDescriptor(Fields.prototype, 'total')), misuse(/Fields\.total.*only methods/));
        for (const recover of ['notAMethod', 'total', 'missing']) {
            assert.throws(() => Reflect.decorate([WithLock('job', { recover })], Fields.prototype, 'run', Object.getOwnPropertyDescriptor(Fields.prototype, 'run')), misuse(new RegExp(`recover names "${recover}"`)));
        }
        assert.throws(() => WithLock(42), DecoratorMisuseError);
    });
    it('a @WithLock method called on an instance Nest did not build rejects and never runs', async () => {
        const before = bodyRuns;
        const orphan = new Guarded();
        await assert.rejects(orphan.plain(), DecoratorMisuseError);
        const detached = suite.app.get(Guarded).plain;
        await assert.rejects(detached(), DecoratorMisuseError, 'called without `this`');
        assert.equal(bodyRuns, before);
    });
});
//# sourceMappingURL=validation.test.js.map