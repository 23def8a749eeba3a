import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';
import { validateLockName } from '../recipes/lock-name.js';
import { LockService, validateWithLockOptions } from '../services/lock.service.js';
import { WITH_LOCK_METADATA } from '../zk-lock.constants.js';
import { copyMetadata, describeMethod, injectOnce, instanceMethod, missingServiceReason } from './method-decorator.js';
import { LOCK_SERVICE_PROPERTY } from './lock-service-method.js';
export { LOCK_SERVICE_PROPERTY } from './lock-service-method.js';
/**
 * Runs the method only while this process holds the lock `name` (fair, cluster-wide). The lease
 * is reachable inside through `lockService.current()`. Re-entrant within one async call chain
 * (flows forked inside the call: see `LockService`).
 * LockService is injected into the class by Nest (a property injection this decorator declares),
 * so a class used without `ZkLockModule` fails at start-up with Nest's missing-dependency error,
 * which names the class and says to import `ZkLockModule`.
 * Composes with `@Cron` / `@Interval` in either order.
 */
export function WithLock(name, options = {}) {
    if (typeof name === 'string')
        validateLockName(name);
    else if (typeof name !== 'function')
        throw new DecoratorMisuseError('WithLock', 'a method', 'the lock name must be a string or a function of the arguments');
    // Fail when the class is defined, not at the first (maybe hours later, scheduled) call.
    validateWithLockOptions({ ...options, recover: undefined });
    return (target, key, descriptor) => {
        const where = describeMethod(target, key);
        const original = instanceMethod('WithLock', target, key, descriptor, 'static methods cannot be locked (no instance to inject LockService into)', 'locked');
        const recoverName = options.recover;
        if (recoverName !== undefined && typeof target[recoverName] !== 'function') {
            throw new DecoratorMisuseError('WithLock', where, `recover names "${recoverName}", which is not a method of the class`);
        }
        injectOnce(LockService, target, LOCK_SERVICE_PROPERTY);
        const wrapper = function (...args) {
            const lockService = this?.[LOCK_SERVICE_PROPERTY];
            if (!(lockService instanceof LockService)) {
                // Never run unlocked: called on something Nest did not build (or detached from `this`).
                return Promise.reject(new DecoratorMisuseError('WithLock', where, missingServiceReason('LockService', where)));
            }
            const lockName = typeof name === 'string' ? name : name(...args);
            const recover = recoverName === undefined ? undefined : (interrupted, successor) => this[recoverName].call(this, interrupted, successor);
            return lockService.withLock(lockName, () => original.apply(this, args), { ...options, recover });
        };
        Object.defineProperty(wrapper, 'name', { value: original.name });
        copyMetadata(original, wrapper);
        Reflect.defineMetadata(WITH_LOCK_METADATA, { name, options }, wrapper);
        descriptor.value = wrapper;
        return descriptor;
    };
}
//# sourceMappingURL=with-lock.decorator.js.map