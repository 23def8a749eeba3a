import { refuseUnknownKeys } from '../../errors/known-keys.js';
/** The keys of `AcquireOptions` (`satisfies`: the compiler checks the list against the type). */
export const ACQUIRE_OPTION_KEYS = Object.keys({ waitMs: 1, signal: 1 });
/** `options`, once no key of it is unknown: a typo (`waitMS`) would otherwise wait without bound. */
export function acquireOptionsOf(options) {
    refuseUnknownKeys(options, ACQUIRE_OPTION_KEYS);
    return options;
}
//# sourceMappingURL=acquire-options.js.map