import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { FairQueue } from '../queue/fair-queue.js';
import { PermitDriver, permitMarker, validatePermitRequest } from './permit-driver.js';
import { markNode } from '../queue/node-mark.js';
/**
 * A counting semaphore on ZooKeeper (Curator's `InterProcessSemaphoreV2`, without its leaks and its
 * partial multi-permit deadlock): the fair queue of locks, one ephemeral sequential node per
 * caller named with the permits it takes and the capacity (`_c_<uuid>-<take>of<permits>-<seq>`),
 * granted by `PermitDriver`'s rule (the permits of every node up to ours fit the capacity).
 *
 * It is the lock's queue, so it inherits its guarantees: a lost create reply is found again by the
 * node's uuid, a timeout, an abort, a busy try or a failure gives the node up, a lost session
 * queues again, and a crash leaves nothing for longer than the session lives. No permit leaks.
 * Free permits cost what a free lock costs: a create and a listing in one round trip.
 */
export class PermitPool {
    constructor(session, logger = console) {
        this.session = session;
        this.logger = logger;
        this.queue = new FairQueue(session, ['permits'], logger);
    }
    /**
     * Takes `request.take` permits of the semaphore `dir`; resolves with our queue node as the
     * entry (its token the `pzxid` of the granting listing: concurrent holders may share one), or
     * `undefined` when `waitMs` is 0 and they are not free at once. Rejects with `LockTimeoutError`,
     * `LockAbortedError`, `SemaphorePermitsMismatchError` or `SessionClosedError`, having given up
     * its node first; with `InvalidOptionsError` at once for a request nobody could hold.
     */
    async take(dir, request, options = {}) {
        const driver = new PermitDriver(dir, validatePermitRequest(request));
        const entry = await this.queue.join(dir, { ...options, marker: permitMarker(request), driver });
        if (entry && driver.successorsAtGrant)
            this.markGranted(entry, options.data);
        return entry;
    }
    /**
     * Tells whoever waits for our node that it is granted (see `PermitDriver`): the node's data is
     * written again unchanged, which raises its version and fires the data watch of the waiter behind
     * it. Not awaited: the holder goes on, and its release's delete is sent after it on the same
     * session. A mark that fails leaves that waiter waiting until our node goes (or its own wait ends):
     * slower, never wrong, and reported.
     */
    markGranted(entry, data) {
        markNode(this.session, entry.path, data ?? Buffer.alloc(0)).catch((error) => {
            if (ZooKeeperError.is(error, 'NONODE'))
                return; // released or lost already: its deletion woke the waiter
            this.logger.warn(`Could not mark ${entry.path} granted; the caller queued behind it waits until it is released: ${error instanceof Error ? error.message : String(error)}`);
        });
    }
}
//# sourceMappingURL=permit-pool.js.map