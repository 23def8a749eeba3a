import { refuseUnknownKeys } from '../../errors/known-keys.js';

/** How long an acquisition may wait. */
export interface AcquireOptions {
  /** Give up after this long (`LockTimeoutError`); our queue node is removed. Default: wait. */
  readonly waitMs?: number;
  /** Give up when this aborts (`LockAbortedError`); our queue node is removed. */
  readonly signal?: AbortSignal;
}

/** The keys of `AcquireOptions` (`satisfies`: the compiler checks the list against the type). */
export const ACQUIRE_OPTION_KEYS: readonly string[] = Object.keys({ waitMs: 1, signal: 1 } satisfies Record<keyof AcquireOptions, 1>);

/** `options`, once no key of it is unknown: a typo (`waitMS`) would otherwise wait without bound. */
export function acquireOptionsOf(options: AcquireOptions): AcquireOptions {
  refuseUnknownKeys(options, ACQUIRE_OPTION_KEYS);
  return options;
}
