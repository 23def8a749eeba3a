import { ZkLockError } from './zk-lock.error.js';
/** A decorator of this library was applied where it cannot work (static method, property, bad option). */
export class DecoratorMisuseError extends ZkLockError {
    constructor(decorator, target, problem) {
        super('ZK_DECORATOR_MISUSE', `@${decorator}() on ${target}: ${problem}`);
        this.decorator = decorator;
        this.target = target;
        this.problem = problem;
    }
}
//# sourceMappingURL=decorator-misuse.error.js.map