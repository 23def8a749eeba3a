import type { Watcher, WatchEvent, ZkStat } from '../../zookeeper/types.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { QueueDriver, Standby } from '../queue/queue-driver.js';
import type { OwnNode } from '../queue/queue-node.js';
import { isReleaseRequested } from '../queue/release-request.js';

/** A read kept fresh under a watch while a successor stands by (see `ReadyStandby`). */
export interface StandingRead<P> {
  /** The latest read: sent after the latest notification, so at least as fresh as it. */
  current(): Promise<P>;
  /** No longer needed: read no more (a watch still standing may fire once, unheeded). */
  stop(): void;
}

/** What the succession needs of the election's leader work. */
export interface SuccessionReads<P> {
  /** The take-over's read, sent behind each look at the queue (see `LeaderWork.prefetch`). */
  prefetch(): Promise<P>;
  /** The same read kept fresh while we stand right behind the leader (see `ReadyStandby`). */
  standby(): StandingRead<P>;
}

/** The watch on our node that stood when we were granted, for the term to take over (see `Succession.ownNodeWatch`). */
export interface OwnNodeWatch {
  /** Routes the watch's one event to `watcher` (at once, if it fired already). Once. */
  take(watcher: Watcher): void;
  /**
   * Our node was marked with a step-down request (see `release-request.ts`) before the watch was
   * set: the read that set it saw the mark, and the watch will not fire for it.
   */
  readonly stepDownRequested: boolean;
}

/** Our node as the succession watches it. */
interface WatchedNode {
  /**
   * The node the queue handed us. Compared by identity, never by path: one join's paths repeat
   * (its uuid stays, and a recreated directory starts its sequence again), and a watch lost with an
   * expired session never fires, so a path seen before says nothing about the node behind it now.
   */
  readonly own: OwnNode;
  /** Its data version, read with the watch: above 0, a step-down was requested before the watch stood. */
  version?: number;
  /** The `exists` watch on it stands: its deletion would reach us before anything later. */
  watched: boolean;
  /** Granted: the term's watcher, or the event that fired before the term took it. */
  heir?: { watcher?: Watcher; fired?: WatchEvent };
}

/**
 * The election's queue driver: direct succession. A waiter whose predecessor was the head at its
 * last look is granted the moment that node is deleted, without listing again: nothing can queue
 * ahead of it (sequence numbers only grow). Meanwhile it keeps what the take-over reads fresh
 * under a watch (`SuccessionReads.standby`), so the grant needs no round trip.
 *
 * Why that is sound: ZooKeeper delivers one session's notifications in order. A watch on our own
 * node (one `exists` per node, which also reads its czxid, the token) would have told us of its
 * deletion before the predecessor's; the standing read's re-read after the leader's last write was
 * sent before the deletion reached us. After a disconnection the server fires the watches of
 * everything that changed meanwhile in no order, so the queue grants this way only on a deletion
 * that arrived with no disconnection since the wait began.
 *
 * One per `join`; after the grant, the watch on our node goes on serving the term (`ownNodeWatch`).
 */
export class Succession<P> implements QueueDriver<P> {
  private node: WatchedNode | undefined;

  constructor(
    private readonly session: ZkSessionClient,
    private readonly reads: SuccessionReads<P>,
  ) {}

  /** Our node's czxid (see `fencing.ts`): a succession grant has no listing. */
  readonly token = 'own-node';

  prefetch(): Promise<P> {
    return this.reads.prefetch();
  }

  /** Reads our node's stat and leaves a watch on it, unless one stands (the queue checks the stat is ours). */
  checkOwnNode(mine: OwnNode, wake: () => void): Promise<ZkStat | null> | undefined {
    if (this.node?.own === mine && this.node.watched) return undefined;
    const node: WatchedNode = (this.node = { own: mine, watched: false });
    const read = this.session.exists(mine.path, (event) => {
      node.watched = false;
      const heir = node.heir;
      if (!heir) return wake(); // a change of our node ends the wait: the next look checks it again
      if (heir.watcher) heir.watcher(event);
      else heir.fired = event;
    });
    return read.then((stat: ZkStat | null) => {
      if (stat?.ephemeralOwner !== mine.sessionId) return stat; // gone, or (made by hand) not ours
      node.version = stat.version;
      node.watched = true;
      return stat;
    });
  }

  /** Behind the head: the standing read, and a grant on its in-order departure if our watch still stands. */
  standBy(mine: OwnNode): Standby<P> {
    const read = this.reads.standby();
    return {
      stop: () => read.stop(),
      grant: () => {
        const node = this.node;
        if (node?.own !== mine || !node.watched || this.session.sessionId !== mine.sessionId) return undefined;
        return { token: mine.token!, prefetched: read.current() };
      },
    };
  }

  /**
   * Called once granted: the watch on our node, if it still stands, for the term to take instead
   * of setting one of its own (an election's grant then costs no request).
   */
  ownNodeWatch(): OwnNodeWatch | undefined {
    const node = this.node;
    if (!node?.watched) return undefined;
    const heir: NonNullable<WatchedNode['heir']> = (node.heir = {});
    return {
      stepDownRequested: isReleaseRequested({ version: node.version ?? 0 }),
      take(watcher) {
        const fired = heir.fired;
        if (fired) queueMicrotask(() => watcher(fired));
        else heir.watcher = watcher;
      },
    };
  }
}
