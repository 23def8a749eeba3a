import { describeValue } from '../../errors/describe-value.js';
import { InvalidOptionsError } from '../../errors/invalid-options.error.js';
import { SemaphorePermitsMismatchError } from '../../errors/semaphore-permits-mismatch.error.js';
import type { QueueDriver, QueuePlace } from '../queue/queue-driver.js';
import type { MarkerText, QueueNode } from '../queue/queue-node.js';

/** What one semaphore acquisition asks for. */
export interface PermitRequest {
  /** The semaphore's capacity. Every user of one semaphore must give the same. */
  readonly permits: number;
  /** Permits taken at once, all or nothing (1 ≤ take ≤ permits). */
  readonly take: number;
}

/** A semaphore node's name records its permits in at most 9 digits. */
const MAX_PERMITS = 999_999_999;

/** `request` if every user of the semaphore could hold it (1 ≤ take ≤ permits ≤ 999999999, whole numbers); else `InvalidOptionsError`. */
export function validatePermitRequest(request: PermitRequest): PermitRequest {
  const { permits, take } = request;
  if (!Number.isSafeInteger(permits) || permits < 1 || permits > MAX_PERMITS) {
    throw new InvalidOptionsError('permits', `expected a whole number of permits from 1 to ${MAX_PERMITS}, got ${describeValue(permits)}`);
  }
  if (!Number.isSafeInteger(take) || take < 1 || take > permits) {
    throw new InvalidOptionsError('take', `expected a whole number of permits from 1 to permits (${permits}), got ${describeValue(take)}`);
  }
  return { permits, take };
}

/** The marker part of a semaphore node's name, `<take>of<permits>`, e.g. `_c_<uuid>-2of8-0000000042`. */
const PERMIT_MARKER = /-(\d{1,9})of(\d{1,9})-[-\d]+$/;

/** How a node's name spells `request` (see `MarkerText`). */
export function permitMarker(request: PermitRequest): MarkerText {
  return `${request.take}of${request.permits}`;
}

/** The permits a semaphore queue node takes, and of which capacity; undefined for any other name. */
export function permitsOf(name: string): PermitRequest | undefined {
  const match = PERMIT_MARKER.exec(name);
  return match ? { take: Number(match[1]), permits: Number(match[2]) } : undefined;
}

const HOLDS: QueuePlace = { holds: true };
const WAIT_FOR_QUEUE: QueuePlace = { holds: false, watch: 'queue' };

/**
 * A counting semaphore's rule on the fair queue: a node holds when the permits of every node up
 * to it, in queue order and its own included, fit the capacity (a prefix sum). One queue, one
 * node per caller whatever it takes: first come, first served, nobody overtakes (a node behind
 * one that does not fit does not fit either), and a request for several permits holds all or
 * none (Curator's `acquire(n)` takes its n leases one by one: two callers can each hold part of
 * what they need and wait for the other forever).
 *
 * Why the limit holds: a node only ever has fewer nodes ahead of it (sequence numbers only grow,
 * so nobody can queue ahead of it later), so once it fits it fits for good, and a holder's count
 * covered every node ahead of it. The holders are therefore a prefix of the queue, and the last of
 * them counted them all.
 *
 * Who waits for what (herd-free: an event wakes at most the one waiter it may grant):
 * - the **first waiter** (everyone ahead fits, it does not) is granted by whichever holder leaves
 *   first, so it waits for any change of the queue (a child watch; joins behind it wake it too,
 *   for one listing);
 * - every **later waiter** cannot be granted before its predecessor is: it waits for that node
 *   to go or to be granted. A node can be granted without changing (others left), so a grantee
 *   that sees nodes behind it marks its node (`PermitPool`); that wakes its successor, which is
 *   now the first waiter or granted.
 *
 * The capacity is recorded in every node's name and checked against every node ahead: a caller
 * with another count meets `SemaphorePermitsMismatchError` while anyone queued under the first is
 * ahead of it. One driver per join: it remembers what its grant saw.
 */
export class PermitDriver implements QueueDriver<never> {
  /** The granting listing showed nodes behind ours: one may be waiting for ours to change. */
  successorsAtGrant = false;

  constructor(
    private readonly dir: string,
    private readonly request: PermitRequest,
  ) {}

  /** Holders overlap, and a grant may come without any node of ours being newer than another holder's. */
  readonly token = 'granting-listing';

  placeOf(queue: readonly QueueNode[], index: number): QueuePlace {
    let ahead = 0;
    for (let i = 0; i < index; i += 1) ahead += this.takeOf(queue[i]!);
    const taken = ahead + this.takeOf(queue[index]!);
    if (taken <= this.request.permits) {
      this.successorsAtGrant = index < queue.length - 1;
      return HOLDS;
    }
    if (ahead <= this.request.permits) return WAIT_FOR_QUEUE;
    return { holds: false, watch: index - 1, untilGranted: true };
  }

  /** The permits `node` takes; throws when it was queued under another capacity. */
  private takeOf(node: QueueNode): number {
    const { take, permits } = permitsOf(node.name)!; // the queue holds `permits` nodes only
    if (permits !== this.request.permits) throw new SemaphorePermitsMismatchError(this.dir, permits, this.request.permits);
    return take;
  }
}
