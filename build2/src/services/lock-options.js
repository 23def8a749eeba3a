import { describeValue } from '../errors/describe-value.js';
import { validateDuration } from '../errors/duration-option.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { refuseUnknownKeys } from '../errors/known-keys.js';
import { ACQUIRE_OPTION_KEYS } from '../recipes/lock/acquire-options.js';
import { validatePermitRequest } from '../recipes/semaphore/permit-driver.js';
const ON_BUSY = ['wait', 'skip', 'throw'];
// The keys each kind of call knows (`satisfies`: the compiler checks each list against its type).
// `recover` is known to every locked call, so that those without recovery refuse it by name (`refuseRecovery`).
const PERMIT_KEYS = Object.keys({ permits: 1, take: 1 });
const WITH_LOCK_KEYS = Object.keys({ waitMs: 1, signal: 1, onBusy: 1, recover: 1 });
/** What `withSemaphore` and `@WithSemaphore` know: its permits and a locked call's options. */
export const SEMAPHORE_OPTION_KEYS = [...PERMIT_KEYS, ...WITH_LOCK_KEYS];
/** The request of `permits` (`known`: the keys the object may carry, by default only the permits'). */
export function validateSemaphorePermits(permits, known = PERMIT_KEYS) {
    if (permits === null || typeof permits !== 'object')
        throw new InvalidOptionsError('options', 'expected an object with the semaphore\'s permits, e.g. { permits: 4 }');
    refuseUnknownKeys(permits, known);
    return validatePermitRequest({ permits: permits.permits, take: permits.take === undefined ? 1 : permits.take });
}
/** Throws `InvalidOptionsError` naming the first bad field, or a key not in `known` (by default `waitMs` and `signal`). */
export function validateAcquireOptions(options, known = ACQUIRE_OPTION_KEYS) {
    if (options === null || typeof options !== 'object')
        throw new InvalidOptionsError('options', 'expected an object');
    refuseUnknownKeys(options, known);
    const { waitMs, signal } = options;
    if (waitMs !== undefined)
        validateDuration('waitMs', waitMs, { unbounded: true });
    if (signal !== undefined && !(signal instanceof AbortSignal))
        throw new InvalidOptionsError('signal', 'expected an AbortSignal');
}
/**
 * Throws `InvalidOptionsError` naming the first bad field, or a key not in `known` (by default a
 * locked call's). Also used by `@WithLock` at decoration time.
 */
export function validateWithLockOptions(options, known = WITH_LOCK_KEYS) {
    validateAcquireOptions(options, known);
    if (options.onBusy !== undefined && !ON_BUSY.includes(options.onBusy)) {
        throw new InvalidOptionsError('onBusy', `expected one of ${ON_BUSY.join(', ')}, got ${describeValue(options.onBusy)}`);
    }
    if (options.recover !== undefined && typeof options.recover !== 'function') {
        throw new InvalidOptionsError('recover', 'expected a function');
    }
}
/** Throws `InvalidOptionsError` when `options` carry a recovery handler where none can run (`what`: e.g. "withLocks"). */
export function refuseRecovery(options, what) {
    if (options.recover !== undefined) {
        throw new InvalidOptionsError('recover', `${what} runs no recovery: guard a single lock with withLock(name, fn, { recover })`);
    }
}
//# sourceMappingURL=lock-options.js.map