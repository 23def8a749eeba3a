import { performance } from 'node:perf_hooks';
import { describeValue } from '../errors/describe-value.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { LockOrderError } from '../errors/lock-order.error.js';
import { LockTimeoutError } from '../errors/lock-timeout.error.js';
import { lockContext } from './lock-context.js';
/**
 * Several locks held at once, all or nothing (Curator's `InterProcessMultiLock`, without its
 * deadlock: Curator takes them in the caller's order). Every set is taken in one canonical order,
 * sorted by name, so that two callers asking for overlapping sets never hold what the other waits
 * for. Each lock is taken inside the one before it: a lock that is not granted (timeout, abort,
 * busy) unwinds the ones already held, and the set is released in the reverse order of taking.
 *
 * `names` must be distinct valid lock names (`validate` checks each). A lock the call chain holds
 * already is re-entered, as `withLock` does; a lock that sorts before one the chain holds is
 * refused with `LockOrderError` before anything is taken.
 */
export async function withLockSet(owner, take, validate, names, fn, options) {
    const order = canonicalOrder(names, validate);
    refuseOutOfOrder(owner, order);
    const deadline = options.waitMs === undefined ? undefined : performance.now() + options.waitMs;
    const held = new Map();
    const takeFrom = (index) => {
        if (index === order.length) {
            const locks = names.map((name) => held.get(name));
            // A lock taken first may have been lost while a later one was awaited: never start `fn` then.
            for (const lock of locks)
                lock.lease.assertHeld();
            return Promise.resolve(fn(locks));
        }
        const name = order[index];
        // The set's wait is one budget: each lock gets what the ones before it left.
        const waitMs = deadline === undefined ? undefined : Math.max(0, Math.ceil(deadline - performance.now()));
        return take(name, (lock) => {
            held.set(name, lock);
            return takeFrom(index + 1);
        }, { ...options, waitMs });
    };
    try {
        return await takeFrom(0);
    }
    catch (error) {
        // The timeout is the set's: say so with the set's budget, not what was left of it.
        if (error instanceof LockTimeoutError && options.waitMs !== undefined && error.waitMs !== options.waitMs) {
            throw new LockTimeoutError(error.lockPath, options.waitMs);
        }
        throw error;
    }
}
/** `names` sorted by UTF-16 code units (the same order for every caller and every locale). */
function canonicalOrder(names, validate) {
    if (!Array.isArray(names) || names.length === 0)
        throw new InvalidOptionsError('names', `expected a non-empty array of lock names, got ${describeValue(names)}`);
    const seen = new Set();
    for (const name of names) {
        validate(name);
        if (seen.has(name))
            throw new InvalidOptionsError('names', `"${name}" is named twice`);
        seen.add(name);
    }
    return [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
/** Throws `LockOrderError` when the chain holds a lock of `owner` that sorts after one of `order` it does not hold. */
function refuseOutOfOrder(owner, order) {
    const heldByChain = new Set();
    for (let frame = lockContext.getStore(); frame; frame = frame.parent)
        if (frame.owner === owner)
            heldByChain.add(frame.lock.name);
    if (heldByChain.size === 0)
        return;
    const last = [...heldByChain].sort().at(-1);
    const early = order.find((name) => !heldByChain.has(name) && name < last);
    if (early !== undefined)
        throw new LockOrderError(early, last);
}
//# sourceMappingURL=lock-set.js.map