import { ZkLockError } from './zk-lock.error.js';

/** A decorator of this library was applied where it cannot work (static method, property, bad option). */
export class DecoratorMisuseError extends ZkLockError {
  constructor(
    readonly decorator: string,
    readonly target: string,
    readonly problem: string,
  ) {
    super('ZK_DECORATOR_MISUSE', `@${decorator}() on ${target}: ${problem}`);
  }
}
