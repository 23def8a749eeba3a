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
import { Inject, Injectable, Logger } from '@nestjs/common';
import { LockBusyError } from '../errors/lock-busy.error.js';
import { LockLostError } from '../errors/lock-lost.error.js';
import { LockTimeoutError } from '../errors/lock-timeout.error.js';
import { LockUpgradeError } from '../errors/lock-upgrade.error.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { findHeldLock, findLockFrame } from './lock-context.js';
import { LockedCalls } from './locked-calls.js';
import { refuseRecovery, SEMAPHORE_OPTION_KEYS, validateAcquireOptions, validateSemaphorePermits, validateWithLockOptions, } from './lock-options.js';
import { withLockSet } from './lock-set.js';
import { ZK_LOCK_BACKEND } from './zk-lock-backend.js';
const SHUTDOWN_REASON = 'the application is shutting down';
const REVOKED_AT_SHUTDOWN = 'the application is shutting down and the lock was still held after drainTimeoutMs';
/**
 * Fair, cluster-wide locks by name. `withLock` is the everyday API (re-entrant within one async
 * call chain, recovery, fencing token); `acquire` / `tryAcquire` hand out raw leases to release
 * yourself. `withLocks` holds several at once; `withReadLock` / `withWriteLock` and
 * `withSemaphore` are the read/write lock and the counting semaphore, each kind in its own
 * directory (a name means three independent locks), with the same waiting, leases and shutdown. On shutdown, waiting acquisitions are aborted, running calls get `drainTimeoutMs`
 * to finish, then every lock still held is revoked: its `signal` aborts with `LockLostError`
 * before its node is deleted, and the call still running ends with that error.
 *
 * Flows forked inside a locked call (a promise not awaited, a timer, an interval) carry its async
 * context. What they may rely on:
 * - a `withLock` of the same name that starts while the lease is held re-enters it and pins it:
 *   the lease is released only when the locked call and every such re-entry have ended (the
 *   locked call's `withLock` resolves after that, a guarded section completes only then);
 * - a `withLock` of the same name that starts after the lease was released or lost is refused
 *   with `LockLostError`: it neither runs nor queues for the lock again;
 * - anything else (plain code in a timer) runs without the lock once the call has ended, so it
 *   must check `signal` / `lease.assertHeld()`, which abort / throw from the release on.
 */
let LockService = class LockService {
    constructor(backend, options) {
        this.options = options;
        this.logger = new Logger('ZkLock');
        this.shutdown = new AbortController();
        /** Whose frames the read/write locks' and the semaphores' are (a lock's are this service's): one name, three independent locks. */
        this.readWriteFrames = {};
        this.semaphoreFrames = {};
        this.locks = backend.locks;
        this.calls = new LockedCalls(this.locks, options.identity, this.logger);
    }
    /** Waits for the lock and returns the lease; `lease.release()` when done. */
    async acquire(name, options = {}) {
        validateAcquireOptions(options); // async: bad options reject, like every other failure of acquire
        return this.locks.acquire(name, { waitMs: options.waitMs, signal: this.withShutdown(options.signal) });
    }
    /**
     * The lease if nobody holds or waits for the lock, else undefined. Never queues, and never waits
     * for ZooKeeper: `ZooKeeperUnreachableError` when the session is disconnected (see `FairQueue.join`).
     */
    tryAcquire(name) {
        if (this.shutdown.signal.aborted)
            return Promise.reject(this.shutdown.signal.reason);
        return this.locks.tryAcquire(name);
    }
    async withLock(name, fn, options = {}) {
        validateWithLockOptions(options);
        const path = this.locks.pathOf(name); // validates the name before anything else happens
        const frame = findLockFrame(this, name);
        if (frame)
            return this.calls.reenter(frame, fn);
        const lease = await this.obtain(path, (waitMs, signal) => this.locks.acquire(name, { waitMs, signal }), options);
        if (!lease)
            return undefined;
        return this.calls.run(this, 'lock', name, lease, fn, options.recover);
    }
    async withLocks(names, fn, options = {}) {
        validateWithLockOptions(options);
        refuseRecovery(options, 'withLocks');
        const take = (name, each, eachOptions) => this.withLock(name, each, eachOptions);
        return withLockSet(this, take, (name) => this.locks.pathOf(name), names, fn, options);
    }
    withReadLock(name, fn, options = {}) {
        return this.withReadWrite('read', name, fn, options);
    }
    withWriteLock(name, fn, options = {}) {
        return this.withReadWrite('write', name, fn, options);
    }
    /** Waits for the read lock of `name` and returns the lease; `lease.release()` when done. Not re-entrant. */
    async acquireRead(name, options = {}) {
        return this.acquireOf(this.locks.pathOf(name, 'read'), (waitMs, signal) => this.locks.acquireRead(name, { waitMs, signal }), options);
    }
    /** Waits for the write lock of `name` and returns the lease; `lease.release()` when done. Not re-entrant. */
    async acquireWrite(name, options = {}) {
        return this.acquireOf(this.locks.pathOf(name, 'write'), (waitMs, signal) => this.locks.acquireWrite(name, { waitMs, signal }), options);
    }
    async withSemaphore(name, options, fn) {
        const request = validateSemaphorePermits(options, SEMAPHORE_OPTION_KEYS);
        validateWithLockOptions(options, SEMAPHORE_OPTION_KEYS);
        refuseRecovery(options, 'withSemaphore');
        const path = this.locks.pathOf(name, 'semaphore');
        const frame = findLockFrame(this.semaphoreFrames, name);
        if (frame)
            return this.calls.reenter(frame, fn);
        const lease = await this.obtain(path, (waitMs, signal) => this.locks.acquirePermits(name, request, { waitMs, signal }), options);
        if (!lease)
            return undefined;
        return this.calls.run(this.semaphoreFrames, 'semaphore', name, lease, fn);
    }
    /** Waits for `take` (default 1) of the `permits` permits of semaphore `name`; `lease.release()` returns them all. */
    async acquireSemaphore(name, permits, options = {}) {
        const request = validateSemaphorePermits(permits);
        return this.acquireOf(this.locks.pathOf(name, 'semaphore'), (waitMs, signal) => this.locks.acquirePermits(name, request, { waitMs, signal }), options);
    }
    /**
     * The lock held by the current call chain: the innermost section's (`withLock`, `withLocks`,
     * `withReadLock`, `withWriteLock`, `withSemaphore` and their decorators), or with `name` the
     * innermost section of that name. A lock, a read/write lock and a semaphore of one name are three
     * locks: `kind` says which one it is. A read/write lock's is the lease the chain holds of it, so a
     * read nested in a write answers the write lease (kind `write`); a semaphore's is its permits'
     * lease (its token orders grants, but concurrent holders may share one). Undefined outside.
     */
    current(name) {
        return findHeldLock([this, this.readWriteFrames, this.semaphoreFrames], name);
    }
    /** Leases held by this process right now. */
    heldLeases() {
        return this.locks.heldLeases();
    }
    /**
     * Asks the current holder of lock `name`, in this process or another, to let go: its
     * `releaseRequested` signal (on the lease, or the `HeldLock` of a `withLock` call) aborts with
     * `ReleaseRequestedError`, if it reads it. Cooperative: nothing is released on the holder's
     * behalf, and a holder that does not look keeps the lock. Resolves with whom it asked (the
     * holder's node, identity and session) or `{ requested: false }` when nobody held the lock.
     * Rejects with `InvalidLockNameError` for a bad name, `ZooKeeperError` when ZooKeeper fails.
     */
    requestRelease(name) {
        return this.locks.requestRelease(name);
    }
    async beforeApplicationShutdown() {
        this.shutdown.abort(new LockLostError(this.options.root, SHUTDOWN_REASON));
        await this.calls.drain(this.options.drainTimeoutMs);
        if (this.calls.size > 0)
            this.logger.warn(`${this.calls.size} locked call(s) still running after drainTimeoutMs; revoking their locks (their signals abort, the calls end with LockLostError)`);
        // Revoked, not just released: the signals of calls still running abort before their nodes go.
        await this.locks.close(REVOKED_AT_SHUTDOWN);
    }
    async withReadWrite(mode, name, fn, options) {
        validateWithLockOptions(options);
        refuseRecovery(options, mode === 'read' ? 'withReadLock' : 'withWriteLock');
        const path = this.locks.pathOf(name, mode);
        const frame = findLockFrame(this.readWriteFrames, name);
        if (frame) {
            // A reader's write would queue behind its own read node, forever.
            if (mode === 'write' && frame.lock.kind === 'read')
                throw new LockUpgradeError(path);
            return this.calls.reenter(frame, fn);
        }
        const take = (waitMs, signal) => mode === 'read' ? this.locks.acquireRead(name, { waitMs, signal }) : this.locks.acquireWrite(name, { waitMs, signal });
        const lease = await this.obtain(path, take, options);
        if (!lease)
            return undefined;
        return this.calls.run(this.readWriteFrames, mode, name, lease, fn);
    }
    /** A raw lease of a kind whose acquisition resolves undefined when `waitMs` 0 finds it busy. */
    async acquireOf(path, take, options) {
        validateAcquireOptions(options);
        const lease = await take(options.waitMs, this.withShutdown(options.signal));
        // waitMs 0 means "do not queue": not granted at once is a timeout of zero.
        if (!lease)
            throw new LockTimeoutError(path, 0);
        return lease;
    }
    /**
     * The lease of a locked call, as `onBusy` wants it: `wait` waits (up to `waitMs`); `skip` and
     * `throw` try once (or wait up to `waitMs`), then resolve undefined or throw `LockBusyError`.
     */
    async obtain(path, take, options) {
        const onBusy = options.onBusy ?? 'wait';
        if (onBusy === 'wait')
            return this.acquireOf(path, take, { waitMs: options.waitMs, signal: options.signal });
        try {
            // No waitMs: tried once, never queued (as `tryAcquire`, which a shutdown refuses).
            if (options.waitMs === undefined && this.shutdown.signal.aborted)
                throw this.shutdown.signal.reason;
            const lease = await take(options.waitMs ?? 0, this.withShutdown(options.signal));
            if (lease || onBusy === 'skip')
                return lease;
        }
        catch (error) {
            if (!(error instanceof LockTimeoutError))
                throw error;
            if (onBusy === 'skip')
                return undefined;
        }
        throw new LockBusyError(path);
    }
    withShutdown(signal) {
        return signal ? AbortSignal.any([signal, this.shutdown.signal]) : this.shutdown.signal;
    }
};
LockService = __decorate([
    Injectable(),
    __param(0, Inject(ZK_LOCK_BACKEND)),
    __param(1, Inject(ZK_LOCK_OPTIONS)),
    __metadata("design:paramtypes", [Object, Object])
], LockService);
export { LockService };
export { validateWithLockOptions } from './lock-options.js';
//# sourceMappingURL=lock.service.js.map