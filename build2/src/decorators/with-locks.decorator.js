import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';
import { validateLockName } from '../recipes/lock-name.js';
import { validateWithLockOptions } from '../services/lock-options.js';
import { WITH_LOCKS_METADATA } from '../zk-lock.constants.js';
import { lockServiceMethod } from './lock-service-method.js';
/**
 * Runs the method only while this process holds every lock of `names`, taken as
 * `LockService.withLocks` takes them (one canonical order, all or nothing, released in reverse).
 * Each held lock is reachable inside through `lockService.current(name)`. LockService is injected
 * as for `@WithLock`; composes with `@Cron`, `@MessagePattern` and the like in either order.
 */
export function WithLocks(names, options = {}) {
    if (Array.isArray(names))
        names.forEach((name) => validateLockName(name));
    else if (typeof names !== 'function')
        throw new DecoratorMisuseError('WithLocks', 'a method', 'the lock names must be an array of names or a function of the arguments');
    // Fail when the class is defined, not at the first call.
    validateWithLockOptions(options);
    return lockServiceMethod('WithLocks', WITH_LOCKS_METADATA, { names, options }, (locks, args, call) => locks.withLocks(typeof names === 'function' ? names(...args) : names, call, options));
}
//# sourceMappingURL=with-locks.decorator.js.map