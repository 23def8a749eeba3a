import { lockToken } from '../fencing.js';
const HOLDS = { holds: true };
/**
 * Where the node at `index` of `queue` (grant order) stands under `driver`: the driver's `placeOf`,
 * or the exclusive rule (only the head holds; a waiter watches its immediate predecessor). The one
 * definition of "who holds", for the queue itself and for whoever inspects a queue.
 */
export function placeIn(driver, queue, index) {
    return driver.placeOf?.(queue, index) ?? (index === 0 ? HOLDS : { holds: false, watch: index - 1 });
}
/** The lock's driver: the paper's queue as it is, its token the granting listing's `pzxid`. */
export const LOCK_DRIVER = { grantToken: lockToken };
//# sourceMappingURL=queue-driver.js.map