import { refuseRecovery, SEMAPHORE_OPTION_KEYS, validateSemaphorePermits, validateWithLockOptions } from '../services/lock-options.js';
import { WITH_SEMAPHORE_METADATA } from '../zk-lock.constants.js';
import { checkLockNameSource, lockNameOf, lockServiceMethod } from './lock-service-method.js';
/**
 * Runs the method only while this process holds `take` (default 1) of the `permits` permits of the
 * semaphore `name` (`LockService.withSemaphore`): at most `permits` across the cluster, first come,
 * first served. Inside, `lockService.current()` returns the permits' lease. LockService is
 * injected as for `@WithLock`.
 */
export function WithSemaphore(name, options) {
    checkLockNameSource('WithSemaphore', name);
    // Fail when the class is defined, not at the first call.
    validateSemaphorePermits(options, SEMAPHORE_OPTION_KEYS);
    refuseRecovery(options, '@WithSemaphore');
    validateWithLockOptions(options, SEMAPHORE_OPTION_KEYS);
    return lockServiceMethod('WithSemaphore', WITH_SEMAPHORE_METADATA, { name, options }, (locks, args, call) => locks.withSemaphore(lockNameOf(name, args), options, call));
}
//# sourceMappingURL=with-semaphore.decorator.js.map