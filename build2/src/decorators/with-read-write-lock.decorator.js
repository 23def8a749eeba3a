import { refuseRecovery, validateWithLockOptions } from '../services/lock-options.js';
import { WITH_READ_LOCK_METADATA, WITH_WRITE_LOCK_METADATA } from '../zk-lock.constants.js';
import { checkLockNameSource, lockNameOf, lockServiceMethod } from './lock-service-method.js';
/**
 * Runs the method only while this process holds the read lock of the read/write lock `name`
 * (`LockService.withReadLock`): alongside other readers, never alongside a writer. Re-enters a
 * read or write lock of `name` the call chain holds. Inside, `lockService.current()` returns the
 * lease (fencing token, signal). LockService is injected as for `@WithLock`.
 */
export function WithReadLock(name, options = {}) {
    checkLockNameSource('WithReadLock', name);
    // Fail when the class is defined, not at the first call.
    refuseRecovery(options, '@WithReadLock');
    validateWithLockOptions(options);
    return lockServiceMethod('WithReadLock', WITH_READ_LOCK_METADATA, { name, options }, (locks, args, call) => locks.withReadLock(lockNameOf(name, args), call, options));
}
/**
 * Runs the method only while this process holds the write lock of the read/write lock `name`
 * (`LockService.withWriteLock`): alone. Within a call chain holding its read lock it throws
 * `LockUpgradeError`. Inside, `lockService.current()` returns the lease (fencing token, signal).
 * LockService is injected as for `@WithLock`.
 */
export function WithWriteLock(name, options = {}) {
    checkLockNameSource('WithWriteLock', name);
    refuseRecovery(options, '@WithWriteLock');
    validateWithLockOptions(options);
    return lockServiceMethod('WithWriteLock', WITH_WRITE_LOCK_METADATA, { name, options }, (locks, args, call) => locks.withWriteLock(lockNameOf(name, args), call, options));
}
//# sourceMappingURL=with-read-write-lock.decorator.js.map