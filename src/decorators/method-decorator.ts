import 'reflect-metadata';
import { Inject } from '@nestjs/common';
import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';

/**
 * Copies every reflect-metadata entry of `from` onto `to`. A wrapping method decorator must do
 * this so that decorators applied before it (e.g. `@Cron` below `@WithLock`) stay visible on
 * the wrapper, whichever order they are written in.
 */
export function copyMetadata(from: object, to: object): void {
  for (const key of Reflect.getMetadataKeys(from)) {
    Reflect.defineMetadata(key, Reflect.getMetadata(key, from), to);
  }
}

/** Names a decorated method in error messages: `Class.method`. */
export function describeMethod(target: object, key: string | symbol): string {
  const owner = typeof target === 'function' ? target.name : target.constructor.name;
  return `${owner}.${String(key)}`;
}

/**
 * The decorated instance method, or a `DecoratorMisuseError` at class definition: static methods
 * (`staticProblem` says why they cannot work) and non-methods (`what`: e.g. "locked") are refused.
 */
export function instanceMethod(
  decorator: string,
  target: object,
  key: string | symbol,
  descriptor: PropertyDescriptor | undefined,
  staticProblem: string,
  what: string,
): (...args: unknown[]) => unknown {
  const where = describeMethod(target, key);
  if (typeof target === 'function') throw new DecoratorMisuseError(decorator, where, staticProblem);
  if (!descriptor || typeof descriptor.value !== 'function') throw new DecoratorMisuseError(decorator, where, `only methods can be ${what}`);
  return descriptor.value as (...args: unknown[]) => unknown;
}

const injected = new WeakMap<object, Set<string | symbol>>();

/** Declares the property injection of `token` into `property` of `prototype`, once per class. */
export function injectOnce(token: Parameters<typeof Inject>[0], prototype: object, property: symbol): void {
  const properties = injected.get(prototype) ?? new Set<string | symbol>();
  if (properties.has(property)) return;
  Inject(token)(prototype, property);
  injected.set(prototype, properties.add(property));
}

/**
 * Why a decorated method was called on an instance without the service Nest should have injected
 * (`where` as `describeMethod` gives it), and what to do about it.
 */
export function missingServiceReason(service: 'LockService' | 'LeaderService' | 'PartitionService', where: string): string {
  const owner = where.split('.')[0];
  return `called on an instance without ${service}: import ZkLockModule.forRoot(...) in the module that provides ${owner}, or a module it imports; get the instance from Nest (not \`new\`) and keep \`this\` bound`;
}
