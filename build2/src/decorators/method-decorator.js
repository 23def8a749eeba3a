import 'reflect-metadata';
import { Inject } from '@nestjs/common';
import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';
/**
 * Copies every reflect-metadata entry of `from` onto `to`. A wrapping method decorator must do
 * this so that decorators applied before it (e.g. `@Cron` below `@WithLock`) stay visible on
 * the wrapper, whichever order they are written in.
 */
export function copyMetadata(from, to) {
    for (const key of Reflect.getMetadataKeys(from)) {
        Reflect.defineMetadata(key, Reflect.getMetadata(key, from), to);
    }
}
/** Names a decorated method in error messages: `Class.method`. */
export function describeMethod(target, key) {
    const owner = typeof target === 'function' ? target.name : target.constructor.name;
    return `${owner}.${String(key)}`;
}
/**
 * The decorated instance method, or a `DecoratorMisuseError` at class definition: static methods
 * (`staticProblem` says why they cannot work) and non-methods (`what`: e.g. "locked") are refused.
 */
export function instanceMethod(decorator, target, key, descriptor, staticProblem, what) {
    const where = describeMethod(target, key);
    if (typeof target === 'function')
        throw new DecoratorMisuseError(decorator, where, staticProblem);
    if (!descriptor || typeof descriptor.value !== 'function')
        throw new DecoratorMisuseError(decorator, where, `only methods can be ${what}`);
    return descriptor.value;
}
const injected = new WeakMap();
/** Declares the property injection of `token` into `property` of `prototype`, once per class. */
export function injectOnce(token, prototype, property) {
    const properties = injected.get(prototype) ?? new Set();
    if (properties.has(property))
        return;
    Inject(token)(prototype, property);
    injected.set(prototype, properties.add(property));
}
/**
 * Why a decorated method was called on an instance without the service Nest should have injected
 * (`where` as `describeMethod` gives it), and what to do about it.
 */
export function missingServiceReason(service, where) {
    const owner = where.split('.')[0];
    return `called on an instance without ${service}: import ZkLockModule.forRoot(...) in the module that provides ${owner}, or a module it imports; get the instance from Nest (not \`new\`) and keep \`this\` bound`;
}
//# sourceMappingURL=method-decorator.js.map