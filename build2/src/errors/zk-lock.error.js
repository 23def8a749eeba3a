/**
 * Base class of every error this library throws, so that callers can catch the whole
 * family with one `instanceof ZkLockError`. `code` is a stable machine-readable name.
 */
export class ZkLockError extends Error {
    constructor(code, message, options) {
        super(message, options);
        this.code = code;
        this.name = new.target.name;
    }
}
//# sourceMappingURL=zk-lock.error.js.map