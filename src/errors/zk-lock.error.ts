/**
 * Base class of every error this library throws, so that callers can catch the whole
 * family with one `instanceof ZkLockError`. `code` is a stable machine-readable name.
 */
export class ZkLockError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
