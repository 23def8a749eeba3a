import type { ZkStat } from '../../zookeeper/types.js';
import type { TokenRule } from '../fencing.js';
import type { OwnNode, QueueNode } from './queue-node.js';

/** Where our node stands in a listing of the queue, as the driver's `placeOf` tells it. */
export type QueuePlace =
  | { readonly holds: true }
  | {
      readonly holds: false;
      /** Index of the node ahead of ours whose deletion (or change: a data watch) may change that. */
      readonly watch: number;
      /**
       * That node is marked (its data version rises above 0) once it is granted: the mark ends the
       * wait as its deletion does, also a mark made before the watch was set. The wait then most
       * likely ends with us waiting for the queue itself (`'queue'`), so the next listing arms the
       * child watch at once (a semaphore's waiter behind another waiter, see `PermitDriver`).
       */
      readonly untilGranted?: boolean;
    }
  /**
   * Any node ahead of ours going may grant us, and none of them can tell (a semaphore's first
   * waiter: permits come back from whichever holder leaves first): the listing is repeated with a
   * child watch, and the wait ends at the queue's next change.
   */
  | { readonly holds: false; readonly watch: 'queue' };

/**
 * What differs between the recipes on the queue (as Curator's lock driver): the queue runs DESIGN
 * §3 and asks its driver at these points. A lock's is `LOCK_DRIVER`; an election's is its
 * `Succession`, one per `join`.
 */
export interface QueueDriver<P = unknown> {
  /**
   * Whether the node at `index` of `queue` (grant order) holds, else which node ahead of it, or
   * the queue, to wait for (Curator's `getsTheLock`). Undefined: exclusive, only the head holds,
   * and a waiter waits for its immediate predecessor. The head must hold, and whatever a waiter
   * watches must be ahead of it, so that every wait ends.
   */
  placeOf?(queue: readonly QueueNode[], index: number): QueuePlace;
  /** Which zxid its holders carry as their fencing token (see `fencing.ts`). */
  readonly token: TokenRule;
  /**
   * Sent right behind every listing (ZooKeeper answers one session in order, so it sees the queue
   * as that listing does): what the caller needs once at the head arrives in the same round trip
   * as the listing that puts it there. The entry carries the granting one.
   */
  prefetch?(): Promise<P>;
  /**
   * Sent with each look once our node's path is known: a read of our node's stat (null when it is
   * gone), which the queue checks is ours (else it queues again at the back) and takes our node's
   * token from (its czxid). `wake` ends the current wait for the predecessor early. Undefined:
   * nothing to check this time (the queue reads the stat itself while it needs our token).
   */
  checkOwnNode?(mine: OwnNode, wake: () => void): Promise<ZkStat | null> | undefined;
  /**
   * While we wait right behind the node that headed the queue at our last look: a way to be
   * granted when it goes, without looking again (see `Succession`).
   */
  standBy?(mine: OwnNode): Standby<P>;
  /** The join is over, granted or not: drop whatever the driver still has standing on the server. */
  finish?(): void;
}

/** A grant that needs no look (see `QueueDriver.standBy`). */
export interface Standby<P> {
  /** The head's deletion arrived in order: the grant, or undefined to look again as usual. */
  grant(): { readonly token: bigint; readonly prefetched?: Promise<P> } | undefined;
  /** The wait is over, whatever ended it. */
  stop(): void;
}

const HOLDS: QueuePlace = { holds: true };

/**
 * Where the node at `index` of `queue` (grant order) stands under `driver`: the driver's `placeOf`,
 * or the exclusive rule (only the head holds; a waiter watches its immediate predecessor). The one
 * definition of "who holds", for the queue itself and for whoever inspects a queue.
 */
export function placeIn(driver: Pick<QueueDriver, 'placeOf'>, queue: readonly QueueNode[], index: number): QueuePlace {
  return driver.placeOf?.(queue, index) ?? (index === 0 ? HOLDS : { holds: false, watch: index - 1 });
}

/** The exclusive lock's driver without a hand-off: the paper's queue as it is (see `exclusiveDriver`). */
export const LOCK_DRIVER: QueueDriver<never> = { token: 'own-node' };
