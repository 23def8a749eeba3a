import { performance } from 'node:perf_hooks';
import { LockTimeoutError } from '../../errors/lock-timeout.error.js';
import { diagnosticsSink } from '../../observability/event-sink.js';
import { FairQueue } from '../queue/fair-queue.js';
import { requestRelease } from '../queue/release-request.js';
import { READ_DRIVER, WRITE_DRIVER } from '../read-write/read-write-drivers.js';
import { PermitPool } from '../semaphore/permit-pool.js';
import { acquireOptionsOf } from './acquire-options.js';
import { LeaseRegistry } from './lease-registry.js';
import { Lease } from './lease.js';
import { waitFailed } from './lock-events.js';
import { watchReleaseRequest } from './release-watch.js';
import { validateLockName } from '../lock-name.js';
import { ReadyState } from '../ready/ready-state.js';
import { znodePaths } from '../znode-paths.js';
import { hasSessionEnded } from '../../zookeeper/session-state.js';
export { ACQUIRE_OPTION_KEYS } from './acquire-options.js';
/**
 * Fair, cluster-wide mutual exclusion by lock name (the ZooKeeper paper's lock without herd
 * effect). Not re-entrant: two acquisitions of one name, even in one process, exclude each
 * other and are granted in request order. Each `name` is its own queue (`order:123`).
 *
 * Costs: uncontended acquire + release is 3 requests in 2 round trips; a queued acquisition
 * 5 requests; each release wakes exactly one waiter.
 */
export class LockClient {
    constructor(session, options) {
        this.session = session;
        this.options = options;
        /** The directory and kind of each lease's lock (a lease knows its name only), for its events; set at the grant. */
        this.leaseLocks = new WeakMap();
        /** What every lease of this client reports to: the session's doubt, and its loss (events, logs). */
        this.leaseHost = {
            sessionInDoubt: () => this.session.mayHaveExpired,
            lost: (lease, error) => {
                if (this.events.wants('lock')) {
                    this.events.emit('lock', { type: 'lock.lost', name: lease.name, path: this.leaseLocks.get(lease).dir, token: lease.fencingToken, reason: error.reason });
                }
            },
            releaseFailed: (lease, error) => {
                this.logger.error(`Could not delete ${lease.path} after its lease was lost or revoked (the server removes it when the session ends): ${describeError(error)}`);
            },
            watchReleaseRequest: (lease, requested) => {
                const { dir, kind } = this.leaseLocks.get(lease);
                // A semaphore's holders are never asked (`requestRelease` is a lock's); their version is a grant's mark (`PermitPool`).
                if (kind === 'semaphore')
                    return;
                watchReleaseRequest(this.session, lease, () => {
                    if (requested() && this.events.wants('lock'))
                        this.events.emit('lock', { type: 'lock.release-requested', name: lease.name, path: dir, token: lease.fencingToken });
                });
            },
        };
        this.logger = options.logger ?? console;
        this.queue = new FairQueue(session, ['lock'], this.logger);
        this.readWriteQueue = new FairQueue(session, ['read', 'write'], this.logger);
        this.permits = new PermitPool(session, this.logger);
        this.registry = new LeaseRegistry(session);
        this.data = options.identity === undefined ? undefined : Buffer.from(options.identity);
        this.events = options.events ?? diagnosticsSink;
    }
    /** Waits for the lock (in queue order) and returns the lease. */
    async acquire(name, options = {}) {
        const lease = await this.join(name, 'lock', options);
        // waitMs 0 means "do not queue": not granted at once is a timeout of zero.
        if (!lease)
            throw new LockTimeoutError(this.pathOf(name), 0);
        return lease;
    }
    /** Takes the lock only if nobody holds or waits for it; never queues. */
    tryAcquire(name) {
        return this.join(name, 'lock', { waitMs: 0 });
    }
    /**
     * Waits for the read lock of the read/write lock `name` (in queue order: behind every writer that
     * queued first) and returns the lease; with `waitMs: 0`, undefined unless granted at once.
     */
    acquireRead(name, options = {}) {
        return this.join(name, 'read', options);
    }
    /** Waits for the write lock of the read/write lock `name` (behind everyone queued first); as `acquireRead`. */
    acquireWrite(name, options = {}) {
        return this.join(name, 'write', options);
    }
    /**
     * Waits for `request.take` permits of the semaphore `name` of `request.permits` (in queue order,
     * all at once) and returns the lease, which holds them all; with `waitMs: 0`, undefined unless
     * they are free at once. See `PermitPool`.
     */
    acquirePermits(name, request, options = {}) {
        return this.join(name, 'semaphore', options, request);
    }
    /** The directory znode of lock `name` of `kind`: locks, read/write locks and semaphores never share one. */
    pathOf(name, kind = 'lock') {
        const valid = validateLockName(name);
        const { root } = this.options;
        if (kind === 'lock')
            return znodePaths.lockDir(root, valid);
        return kind === 'semaphore' ? znodePaths.semaphoreDir(root, valid) : znodePaths.readWriteLockDir(root, valid);
    }
    /** Leases currently held through this client. */
    heldLeases() {
        return this.registry.list();
    }
    /** Marks the holder's node of lock `name` (see `release-request.ts`): its `releaseRequested` aborts. 3 requests. */
    async requestRelease(name) {
        return requestRelease(this.session, this.pathOf(name), 'lock');
    }
    /**
     * Enters the guarded section of lock `name` (its ready znode, see `ReadyState`) for `owner`; `recover`
     * runs first when the previous holder died or threw mid-section. Completing deletes the record (`Completion`).
     */
    enterGuarded(name, owner, recover) {
        const dir = this.pathOf(name);
        return new ReadyState(this.session, dir, 'delete').enter(owner, async (interrupted, successor) => {
            try {
                await recover(interrupted, successor);
            }
            catch (error) {
                this.reportRecovery(name, dir, owner.token, interrupted, { error });
                throw error;
            }
            this.reportRecovery(name, dir, owner.token, interrupted);
        });
    }
    /**
     * Revokes every lease still held (each `signal` aborts with `LockLostError(reason)` before its
     * node is deleted, DESIGN §8.8), and any lease granted from now on, then stops watching the
     * session. Resolves once the held leases' nodes are deleted.
     */
    async close(reason = 'the lock client was closed') {
        this.closedFor ??= reason;
        await Promise.all(this.registry.list().map((lease) => lease.revoke(reason)));
        this.registry.dispose();
    }
    /** Queues for the lock `name` of `kind` (`request`: a semaphore's) and wraps the grant in a registered lease. */
    async join(name, kind, options, request) {
        const dir = this.pathOf(name, kind);
        const { waitMs, signal } = acquireOptionsOf(options);
        const events = this.events;
        const startedAt = performance.now();
        if (events.wants('lock'))
            events.emit('lock', { type: 'lock.wait-started', name, path: dir });
        let entry;
        try {
            entry = await this.enqueue(dir, kind, { data: this.data, waitMs, signal }, request);
        }
        catch (error) {
            if (events.wants('lock'))
                events.emit('lock', waitFailed(name, dir, performance.now() - startedAt, error));
            throw error;
        }
        if (!entry) {
            if (events.wants('lock'))
                events.emit('lock', { type: 'lock.busy', name, path: dir });
            return undefined;
        }
        const grantedAt = performance.now();
        const lease = new Lease(name, entry, (held) => {
            this.registry.delete(held);
            // The delete is what hands the lock over: send it before reporting anything.
            const left = this.queue.leave(held.path, held.sessionId); // any node of ours, whichever queue it is in
            if (events.wants('lock'))
                events.emit('lock', { type: 'lock.released', name, path: dir, token: held.fencingToken, holdMs: performance.now() - grantedAt });
            return left;
        }, this.leaseHost);
        this.leaseLocks.set(lease, { dir, kind });
        this.registry.add(lease);
        if (events.wants('lock')) {
            events.emit('lock', { type: 'lock.acquired', name, path: dir, token: entry.token, waitMs: grantedAt - startedAt, handoff: entry.waited });
        }
        if (this.closedFor !== undefined) {
            // Granted after close() took its list of leases (the reply raced the shutdown): nobody would
            // release it, so it is revoked now; the caller gets it aborted.
            lease.revoke(this.closedFor).catch((error) => this.leaseHost.releaseFailed(lease, error));
        }
        else if (this.session.sessionId !== entry.sessionId || hasSessionEnded(this.session, entry.sessionId)) {
            // Granted on a session that was lost meanwhile (the reply raced the state change).
            lease.markLost('the session changed while the lock was granted');
            void lease.release();
        }
        return lease;
    }
    enqueue(dir, kind, options, request) {
        switch (kind) {
            case 'lock':
                return this.queue.join(dir, options);
            case 'read':
                return this.readWriteQueue.join(dir, { ...options, marker: 'read', driver: READ_DRIVER });
            case 'write':
                return this.readWriteQueue.join(dir, { ...options, marker: 'write', driver: WRITE_DRIVER });
            case 'semaphore':
                return this.permits.take(dir, request, options);
        }
    }
    reportRecovery(name, path, token, interrupted, failure) {
        if (!this.events.wants('lock'))
            return;
        const outcome = failure ? 'failed' : 'repaired';
        this.events.emit('lock', { type: 'lock.recovery', name, path, token, interrupted, outcome, ...failure });
    }
}
function describeError(error) {
    return error instanceof Error ? error.message : String(error);
}
//# sourceMappingURL=lock-client.js.map