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
 * DESIGN §7: `@WithLock` composes with `@Cron` / `@Interval` of @nestjs/schedule in both decorator
 * orders (the scheduler discovers the job, and every run holds the lock), is re-entrant within one
 * async call chain, and two concurrent chains of one process exclude each other.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { Cron, Interval, ScheduleModule } from '@nestjs/schedule';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { LockService } from '../../src/services/lock.service.js';
import { basenameOf } from '../../src/zookeeper/znode-path.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { openSession, queueNodes, sharedConnect, startLockApp, testRoot } from './lock-test-kit.js';
const root = testRoot();
let observer;
let ScheduledJobs = class ScheduledJobs {
    constructor(locks) {
        this.locks = locks;
        this.runs = [];
    }
    cronLockOutside() {
        return this.record('cronLockOutside');
    }
    cronLockInside() {
        return this.record('cronLockInside');
    }
    intervalLockOutside() {
        return this.record('intervalLockOutside');
    }
    intervalLockInside() {
        return this.record('intervalLockInside');
    }
    async record(job) {
        const held = this.locks.current();
        const head = held && (await queueNodes(observer, `${root}/locks/${held.name}`))[0];
        this.runs.push({ job, lock: held?.name, atHead: !!held && head === basenameOf(held.lease.path) });
    }
};
__decorate([
    WithLock('cron-outer'),
    Cron('* * * * * *'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], ScheduledJobs.prototype, "cronLockOutside", null);
__decorate([
    Cron('* * * * * *'),
    WithLock('cron-inner'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], ScheduledJobs.prototype, "cronLockInside", null);
__decorate([
    WithLock('interval-outer'),
    Interval(100),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], ScheduledJobs.prototype, "intervalLockOutside", null);
__decorate([
    Interval(100),
    WithLock('interval-inner'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], ScheduledJobs.prototype, "intervalLockInside", null);
ScheduledJobs = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [LockService])
], ScheduledJobs);
let Nested = class Nested {
    constructor(locks) {
        this.locks = locks;
        this.inside = 0;
        this.maxInside = 0;
        this.tokens = [];
        this.ranLocked = 0;
    }
    async outer() {
        const mine = this.locks.current();
        const [inner, queued] = await this.inner();
        return [mine, inner, queued];
    }
    async inner() {
        return [this.locks.current(), await queueNodes(observer, `${root}/locks/reentrant`)];
    }
    async flow() {
        this.inside += 1;
        this.maxInside = Math.max(this.maxInside, this.inside);
        this.tokens.push(this.locks.current().fencingToken);
        await sleep(15);
        this.inside -= 1;
    }
    async later() {
        this.ranLocked += 1;
    }
};
__decorate([
    WithLock('reentrant'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Nested.prototype, "outer", null);
__decorate([
    WithLock('reentrant'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Nested.prototype, "inner", null);
__decorate([
    WithLock('flow'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Nested.prototype, "flow", null);
__decorate([
    WithLock('later'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Nested.prototype, "later", null);
Nested = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [LockService])
], Nested);
describe('composition with @nestjs/schedule, re-entrancy, in-process exclusion', () => {
    let app;
    before(async () => {
        observer = await openSession(sharedConnect());
        app = await startLockApp({ connect: sharedConnect(), root, sessionTimeoutMs: 4000 }, [ScheduledJobs, Nested], [ScheduleModule.forRoot()]);
    });
    after(async () => {
        await app?.close();
        observer?.close();
    });
    it('@Cron and @Interval in both orders: discovered, and every run holds its lock', async () => {
        const jobs = app.get(ScheduledJobs);
        const count = (job) => jobs.runs.filter((run) => run.job === job).length;
        await waitFor(() => ['cronLockOutside', 'cronLockInside'].every((job) => count(job) >= 2) && ['intervalLockOutside', 'intervalLockInside'].every((job) => count(job) >= 3), {
            timeoutMs: 10_000,
            message: 'every scheduled job ran',
        });
        const expected = {
            cronLockOutside: 'cron-outer',
            cronLockInside: 'cron-inner',
            intervalLockOutside: 'interval-outer',
            intervalLockInside: 'interval-inner',
        };
        for (const run of [...jobs.runs]) {
            assert.equal(run.lock, expected[run.job], `${run.job} ran holding ${run.lock}`);
            assert.ok(run.atHead, `${run.job}: our node was at the head of the queue`);
        }
    });
    it('re-entrant: a locked method calling another under the same name runs under the same lease', async () => {
        const nested = app.get(Nested);
        const [outer, inner, queued] = await withTimeout(nested.outer(), 5000, 'deadlock on re-entry');
        assert.ok(outer && inner);
        assert.equal(inner, outer, 'the same held lock');
        assert.equal(queued.length, 1, 'one node in ZooKeeper, not two');
        assert.deepEqual(await queueNodes(observer, `${root}/locks/reentrant`), []);
    });
    it('two (and more) concurrent flows in one process exclude each other', async () => {
        const nested = app.get(Nested);
        await withTimeout(Promise.all([nested.flow(), nested.flow(), nested.flow()]), 10_000, 'flows finished');
        assert.equal(nested.maxInside, 1, 'at most one flow inside');
        assert.equal(nested.tokens.length, 3);
        assert.ok(nested.tokens[0] < nested.tokens[1] && nested.tokens[1] < nested.tokens[2]);
    });
    it('a continuation that outlives its locked call is refused with LockLostError: neither run nor queued', async () => {
        const nested = app.get(Nested);
        const locks = app.get(LockService);
        const other = await openSession(sharedConnect());
        try {
            let fire;
            const trigger = new Promise((resolve) => (fire = resolve));
            let later;
            // The continuation is registered inside the locked call, so it carries that call's context.
            await locks.withLock('later', () => {
                later = trigger.then(() => nested.later());
            });
            const holder = await new LockClient(other, { root }).acquire('later');
            fire();
            // Running it would run it as the holder of a released lease (while `holder` holds the lock);
            // queueing it would silently turn a re-entry into a fresh acquisition.
            await assert.rejects(withTimeout(later, 5000, 'the late call neither ran nor failed'), LockLostError);
            assert.equal(nested.ranLocked, 0, 'the late call ran');
            assert.deepEqual(await queueNodes(observer, `${root}/locks/later`), [basenameOf(holder.path)], 'only the holder is in the queue');
            await holder.release();
        }
        finally {
            other.close();
        }
    });
});
//# sourceMappingURL=composition.test.js.map