import type { QueueDriver, QueuePlace } from '../queue/queue-driver.js';
import type { QueueNode } from '../queue/queue-node.js';

const HOLDS: QueuePlace = { holds: true };

/**
 * A reader holds when no writer is queued ahead of it: readers share the lock, and a writer that
 * arrived first is served first (no writer starves behind a stream of readers). Otherwise it waits
 * for the **nearest** writer ahead, not the first: when the head writer leaves, only the readers
 * right behind it wake, never every queued reader (Curator watches the first writer, a herd).
 * A reader behind several writers wakes once per writer ahead of it, each time one goes.
 */
export const READ_DRIVER: QueueDriver<never> = {
  token: 'own-node',
  placeOf(queue: readonly QueueNode[], index: number): QueuePlace {
    for (let ahead = index - 1; ahead >= 0; ahead -= 1) if (queue[ahead]!.marker === 'write') return { holds: false, watch: ahead };
    return HOLDS;
  },
};

// A writer holds only at the head, as a lock's holder does, and waits for its immediate
// predecessor, reader or writer: the queue hands the lock on one node at a time, herd-free. Its
// driver is the exclusive lock's (`exclusiveDriver`), hand-off included.
