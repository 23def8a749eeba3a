import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';
import { validateLockName } from '../recipes/lock-name.js';
import { LockService } from '../services/lock.service.js';
import { copyMetadata, describeMethod, injectOnce, instanceMethod, missingServiceReason } from './method-decorator.js';
/**
 * Property under which Nest injects LockService into classes that use @WithLock. Nest names the
 * property in its start-up error when LockService cannot be resolved, so its description says
 * what to do.
 */
export const LOCK_SERVICE_PROPERTY = Symbol('LockService for @WithLock: import ZkLockModule.forRoot(...) or forRootAsync(...) in the module that provides this class, or in a module it imports (or make ZkLockModule isGlobal)');
/** Checks a decorator's `LockNameSource` when the class is defined. */
export function checkLockNameSource(decorator, name) {
    if (typeof name === 'string')
        validateLockName(name);
    else if (typeof name !== 'function')
        throw new DecoratorMisuseError(decorator, 'a method', 'the lock name must be a string or a function of the arguments');
}
/** The lock name of one call. */
export function lockNameOf(name, args) {
    return typeof name === 'string' ? name : name(...args);
}
/**
 * A method decorator that runs the method through the `LockService` Nest injects into its class
 * (`run` gets the service, the call's arguments and the original call): the shared body of
 * `@WithLocks`, `@WithReadLock`, `@WithWriteLock` and `@WithSemaphore`. The wrapper keeps the
 * method's name and metadata (so it composes with `@Cron`, `@MessagePattern` and the like in either
 * order) and records `metadata` under `metadataKey`. Called on an instance Nest did not build, it
 * rejects with `DecoratorMisuseError`: never runs unlocked.
 */
export function lockServiceMethod(decorator, metadataKey, metadata, run) {
    return (target, key, descriptor) => {
        const where = describeMethod(target, key);
        const original = instanceMethod(decorator, target, key, descriptor, 'static methods cannot be locked (no instance to inject LockService into)', 'locked');
        injectOnce(LockService, target, LOCK_SERVICE_PROPERTY);
        const wrapper = function (...args) {
            const lockService = this?.[LOCK_SERVICE_PROPERTY];
            if (!(lockService instanceof LockService)) {
                // Never run unlocked: called on something Nest did not build (or detached from `this`).
                return Promise.reject(new DecoratorMisuseError(decorator, where, missingServiceReason('LockService', where)));
            }
            return run(lockService, args, () => original.apply(this, args));
        };
        Object.defineProperty(wrapper, 'name', { value: original.name });
        copyMetadata(original, wrapper);
        Reflect.defineMetadata(metadataKey, metadata, wrapper);
        descriptor.value = wrapper;
        return descriptor;
    };
}
//# sourceMappingURL=lock-service-method.js.map