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
 * Issue 14 L2: a guarded lock's recovery handler runs inside the lock's frame, so a handler that
 * takes the same lock (`withLock` of that name, a `@WithLock` method of it) re-enters the lease
 * being recovered instead of queueing behind its own node (a deadlock).
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { describe, it } from 'node:test';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import { LockService } from '../../src/services/lock.service.js';
import { withTimeout } from '../support/wait.js';
import { lockAppSuite, queueNodes, testRoot } from './lock-test-kit.js';
let Ledger = class Ledger {
    constructor(locks) {
        this.locks = locks;
        this.repairs = [];
        this.failNext = false;
    }
    async post() {
        if (this.failNext) {
            this.failNext = false;
            throw new Error('crashed mid-section');
        }
    }
    /** The repair takes the same lock through a @WithLock method, as a user naturally writes it. */
    async repair(interrupted) {
        await this.rebuild(interrupted);
    }
    async rebuild(interrupted) {
        this.repairs.push({ token: this.locks.current('ledger')?.fencingToken, interrupted });
    }
};
__decorate([
    WithLock('ledger', { recover: 'repair' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Ledger.prototype, "post", null);
__decorate([
    WithLock('ledger'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], Ledger.prototype, "rebuild", null);
Ledger = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [LockService])
], Ledger);
const root = testRoot();
const suite = lockAppSuite(root, [Ledger]);
describe('a recovery handler that takes the same lock (L2)', () => {
    it('withLock of the same name inside recover re-enters the lease being recovered', async () => {
        await assert.rejects(suite.locks.withLock('books', () => Promise.reject(new Error('crashed mid-section')), { recover: async () => { } }), /crashed/);
        let inner;
        const token = await withTimeout(suite.locks.withLock('books', (lock) => lock.fencingToken, {
            recover: async () => {
                inner = await suite.locks.withLock('books', (lock) => lock.fencingToken);
            },
        }), 10_000, 'deadlock: the recovery handler queued behind its own lock');
        assert.equal(inner, token, 'the recovery ran under the lease being recovered');
        assert.deepEqual(await queueNodes(suite.observer, `${root}/locks/books`), []);
    });
    it('@WithLock recover calling a @WithLock method of the same lock completes', async () => {
        const ledger = suite.app.get(Ledger);
        ledger.failNext = true;
        await assert.rejects(ledger.post(), /crashed/);
        await withTimeout(ledger.post(), 10_000, 'deadlock: the recovery handler queued behind its own lock');
        assert.equal(ledger.repairs.length, 1, 'repaired once');
        assert.ok(ledger.repairs[0].token !== undefined, 'the repair ran holding the lock');
        assert.deepEqual(await queueNodes(suite.observer, `${root}/locks/ledger`), []);
    });
});
//# sourceMappingURL=recovery-reentry.test.js.map