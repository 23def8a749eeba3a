var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
/**
 * `LockService.current()` inside every kind of locked section (issue 29, item 7 of the review:
 * it was undefined below read/write locks and semaphores). In `withReadLock` / `withWriteLock` /
 * `withSemaphore` callbacks and in `@WithReadLock` / `@WithWriteLock` / `@WithSemaphore` methods,
 * `current()` and `current(name)` return the section's `HeldLock`, whose fencing token is the
 * lease's; nested sections of several kinds answer innermost first.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Inject, Injectable } from '@nestjs/common';
import { WithReadLock, WithWriteLock } from '../../src/decorators/with-read-write-lock.decorator.js';
import { WithSemaphore } from '../../src/decorators/with-semaphore.decorator.js';
import { LockService } from '../../src/services/lock.service.js';
import { lockAppSuite, testRoot } from './lock-test-kit.js';
let Writer = class Writer {
    constructor(locks) {
        this.locks = locks;
    }
    seen(name) {
        const innermost = this.locks.current();
        return { innermost, named: this.locks.current(name), held: innermost !== undefined && this.locks.heldLeases().includes(innermost.lease) };
    }
    async read() {
        return this.seen('catalogue');
    }
    async write() {
        return this.seen('catalogue');
    }
    async export() {
        return this.seen('exports');
    }
};
__decorate([
    WithReadLock('catalogue'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Writer.prototype, "read", null);
__decorate([
    WithWriteLock('catalogue'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Writer.prototype, "write", null);
__decorate([
    WithSemaphore('exports', { permits: 2 }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Writer.prototype, "export", null);
Writer = __decorate([
    Injectable(),
    __param(0, Inject(LockService)),
    __metadata("design:paramtypes", [LockService])
], Writer);
describe('LockService.current() in read/write-lock and semaphore sections', () => {
    const root = testRoot();
    const suite = lockAppSuite(root, [Writer]);
    for (const kind of ['read', 'write', 'semaphore']) {
        it(`returns the lease in a ${kind} callback, fencing token included`, async () => {
            const { locks } = suite;
            const inside = (held) => ({ held, innermost: locks.current(), named: locks.current(`cb-${kind}`) });
            const seen = kind === 'read' ? await locks.withReadLock(`cb-${kind}`, inside)
                : kind === 'write' ? await locks.withWriteLock(`cb-${kind}`, inside)
                    : await locks.withSemaphore(`cb-${kind}`, { permits: 3 }, inside);
            assert.equal(seen.innermost, seen.held, 'current() is the callback\'s lock');
            assert.equal(seen.named, seen.held, 'current(name) is the callback\'s lock');
            assert.equal(seen.innermost?.kind, kind);
            assert.equal(typeof seen.innermost?.fencingToken, 'bigint');
            assert.equal(seen.innermost?.fencingToken, seen.held.lease.fencingToken);
            assert.equal(locks.current(), undefined, 'nothing after the section');
        });
    }
    for (const method of ['read', 'write', 'export']) {
        it(`returns the lease in a @With${method === 'export' ? 'Semaphore' : method === 'read' ? 'ReadLock' : 'WriteLock'} method, fencing token included`, async () => {
            const seen = await suite.app.get(Writer)[method]();
            assert.ok(seen.innermost, 'current() inside the method');
            assert.equal(seen.named, seen.innermost, 'current(name) is the same lease');
            assert.equal(seen.innermost.kind, method === 'export' ? 'semaphore' : method);
            assert.ok(seen.held, 'the lease this process held for the call');
            assert.ok(seen.innermost.fencingToken > 0n, `the fencing token is reachable (${seen.innermost.fencingToken})`);
        });
    }
    it('answers innermost first across kinds; a read within a write re-enters the write lease', async () => {
        const { locks } = suite;
        await locks.withLock('mixed', async (lock) => {
            await locks.withWriteLock('mixed', async (write) => {
                await locks.withReadLock('mixed', async (read) => {
                    assert.equal(read, write, 'the read re-enters the write lease');
                    assert.equal(locks.current('mixed'), write);
                    assert.equal(locks.current('mixed')?.kind, 'write');
                });
                await locks.withSemaphore('pool', { permits: 1 }, async (permits) => {
                    assert.equal(locks.current(), permits, 'the innermost section');
                    assert.equal(locks.current('pool'), permits);
                    assert.equal(locks.current('mixed'), write, 'the innermost of that name');
                });
            });
            assert.equal(locks.current('mixed'), lock, 'the lock again once the write lock ended');
        });
    });
});
//# sourceMappingURL=current-lease.test.js.map