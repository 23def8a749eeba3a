import { AsyncLocalStorage } from 'node:async_hooks';
/**
 * The calls running as the holder of one lease: the locked call that acquired it, and every
 * re-entrant call that entered while it was held (awaited or not: a forked `withLock`, a timer's).
 * The lease is released when the last of them ends, and from then on nothing can enter: a flow
 * that outlives its locked call never runs as the holder of a released lease (DESIGN §8.8).
 */
export class LeasePins {
    constructor() {
        this.count = 1; // the acquiring call
    }
    /** Pins the lease for one more call; false once every call has ended (the lease is being released). */
    enter() {
        if (this.count === 0)
            return false;
        this.count += 1;
        return true;
    }
    /** One call ended. */
    exit() {
        this.count -= 1;
        if (this.count === 0)
            this.wake?.();
    }
    /** Resolves once every call has ended (at once if they have). */
    ended() {
        if (this.count === 0)
            return Promise.resolve();
        return (this.allEnded ??= new Promise((resolve) => (this.wake = resolve)));
    }
}
/**
 * Async-local record of the locks a call chain holds: it makes `withLock` re-entrant within
 * one chain (a nested call for a lock the chain already holds runs under the same lease), while
 * two concurrent chains of one process still queue against each other in ZooKeeper.
 */
export const lockContext = new AsyncLocalStorage();
/** The innermost frame of a lock `owner` holds in this chain, or of the one named `name`. */
export function findLockFrame(owner, name) {
    for (let frame = lockContext.getStore(); frame; frame = frame.parent) {
        if (frame.owner === owner && (name === undefined || frame.lock.name === name))
            return frame;
    }
    return undefined;
}
/**
 * The innermost lock this chain holds of any of `owners` (whatever its kind), or the innermost
 * named `name`: what `LockService.current()` answers.
 */
export function findHeldLock(owners, name) {
    for (let frame = lockContext.getStore(); frame; frame = frame.parent) {
        if (owners.includes(frame.owner) && (name === undefined || frame.lock.name === name))
            return frame.lock;
    }
    return undefined;
}
//# sourceMappingURL=lock-context.js.map