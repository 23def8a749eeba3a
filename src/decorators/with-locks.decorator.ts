import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';
import { validateLockName } from '../recipes/lock-name.js';
import type { WithLocksOptions } from '../services/lock-set.js';
import { LockService, validateWithLockOptions } from '../services/lock.service.js';
import { WITH_LOCKS_METADATA } from '../zk-lock.constants.js';
import { copyMetadata, describeMethod, injectOnce, instanceMethod, missingServiceReason } from './method-decorator.js';
import { LOCK_SERVICE_PROPERTY } from './with-lock.decorator.js';

/** The lock names of a call: fixed, or a function of the method's arguments (e.g. both accounts of a transfer). */
export type LockNamesSource = readonly string[] | ((...args: any[]) => readonly string[]);

/**
 * Runs the method only while this process holds every lock of `names`, taken as
 * `LockService.withLocks` takes them (one canonical order, all or nothing, released in reverse).
 * Each held lock is reachable inside through `lockService.current(name)`. LockService is injected
 * as for `@WithLock`; composes with `@Cron`, `@MessagePattern` and the like in either order.
 */
export function WithLocks(names: LockNamesSource, options: Omit<WithLocksOptions, 'signal'> = {}): MethodDecorator {
  if (Array.isArray(names)) names.forEach((name) => validateLockName(name));
  else if (typeof names !== 'function') throw new DecoratorMisuseError('WithLocks', 'a method', 'the lock names must be an array of names or a function of the arguments');
  // Fail when the class is defined, not at the first call.
  validateWithLockOptions(options);
  return (target, key, descriptor) => {
    const where = describeMethod(target, key);
    const original = instanceMethod('WithLocks', target, key, descriptor, 'static methods cannot be locked (no instance to inject LockService into)', 'locked');
    injectOnce(LockService, target, LOCK_SERVICE_PROPERTY);
    const wrapper = function (this: Record<symbol | string, unknown>, ...args: unknown[]) {
      const lockService = this?.[LOCK_SERVICE_PROPERTY];
      if (!(lockService instanceof LockService)) {
        // Never run unlocked: called on something Nest did not build (or detached from `this`).
        return Promise.reject(new DecoratorMisuseError('WithLocks', where, missingServiceReason('LockService', where)));
      }
      const lockNames = typeof names === 'function' ? names(...args) : names;
      return lockService.withLocks(lockNames, () => original.apply(this, args), options);
    };
    Object.defineProperty(wrapper, 'name', { value: original.name });
    copyMetadata(original, wrapper);
    Reflect.defineMetadata(WITH_LOCKS_METADATA, { names, options }, wrapper);
    descriptor.value = wrapper as typeof descriptor.value;
    return descriptor;
  };
}
