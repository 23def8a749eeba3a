import { describeValue } from './describe-value.js';
import { InvalidOptionsError } from './invalid-options.error.js';
/**
 * The longest delay Node's timers keep: 2^31 - 1 ms (about 24.8 days). Node does not refuse a
 * longer one: it prints a TimeoutOverflowWarning and fires after 1 ms, so a wait of a year would
 * end at once. Every duration option that becomes a timer is checked against it here.
 */
export const MAX_TIMER_MS = 2_147_483_647;
/**
 * `value` if it is a duration (ms) that `rule` allows and a timer can hold; else throws
 * `InvalidOptionsError` naming `field`, the value and the allowed range.
 */
export function validateDuration(field, value, rule = {}) {
    const { min = 0, integer = false, unbounded = false } = rule;
    if (typeof value === 'number') {
        if (value === Number.POSITIVE_INFINITY ? unbounded : value >= min && value <= MAX_TIMER_MS && (!integer || Number.isInteger(value)))
            return value;
    }
    const what = integer ? 'an integer number of milliseconds' : 'a number of milliseconds';
    const infinity = unbounded ? ', or Infinity for no bound' : '';
    throw new InvalidOptionsError(field, `expected ${what} from ${min} to ${MAX_TIMER_MS} (the longest timer Node keeps)${infinity}, got ${describeValue(value)}`);
}
//# sourceMappingURL=duration-option.js.map