import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { Watcher } from '../../zookeeper/types.js';
import { isSessionOwned } from './queue-node.js';
import { SessionWait, type Wakeable } from './session-wait.js';
import type { WaitControl } from './wait-control.js';

/** The join that waits (see `waitForDeletion`). */
export interface Waiter extends Wakeable {
  /** The predecessor turned out to be a persistent look-alike (made by hand): leave it out from now on. */
  foreign(path: string): void;
}

// DESIGN §3 step 3: watch the immediate predecessor only, and wait for its deletion.

/**
 * What a waiter has seen of a predecessor it waits for until granted (see `QueuePlace.untilGranted`),
 * kept across its waits for that one node: a mark is a data version above what was seen.
 */
export interface MarkSeen {
  /**
   * A lower bound of the node's data version when the waiter last listed the queue: a mark at or
   * below it came before that listing, which already reflects the grant it announced (or, made by
   * hand, announced nothing). 0 before the first wait: any mark is new.
   */
  version: number;
}

/**
 * Waits until `path` is deleted or changed (one-shot data watch), our session changes, our own
 * node's watch fires, or `control` stops; with `mark`, also at once if the node already carries a
 * mark newer than `mark.version` (a grant made after our listing but before the watch was set: the
 * watch fires for no change made before it). `mark` is updated with what this wait saw, so a mark
 * wakes its waiter once: a node marked by hand costs one more look, never a loop; and a grant is
 * heeded however the previous wait ended (a failed read, a reconnection), as long as it is newer.
 * Resolves true only when the watch reported the deletion in order: with no disconnection meanwhile. (On reconnection the server fires the watches whose
 * nodes changed while we were away all at once, in no particular order: the deletion of our own
 * node, or a change of what a standby watches, may then come after the predecessor's.)
 * `getData` rather than `exists`: on a node that is already gone it leaves no watch behind (an
 * `exists` watch would wait forever for a creation that never comes).
 */
export function waitForDeletion(session: ZkSessionClient, path: string, sessionId: string, waiter: Waiter, control: WaitControl | undefined, mark?: MarkSeen): Promise<boolean> {
  let inOrder = true;
  // A suspended session keeps its watches (the C client re-registers them on reconnection), but
  // the server fires those whose nodes changed meanwhile all at once, in no order.
  const wait = new SessionWait(session, sessionId, false, { control, wakeable: [waiter], onState: (change) => void (isConnectedState(change.state) || (inOrder = false)) });
  if (wait.isSettled) return wait.done;
  const watcher: Watcher = (event) => {
    // The node changed after this read (its reply comes before the watch's event): the listing
    // that follows this wake-up sees at least that change, so only a later mark is news. (A
    // watch of an earlier wait that fires late tells nothing about this one's read.)
    if (mark && !wait.isSettled && event.type === 'changed') mark.version += 1;
    wait.end(event.type === 'deleted' && inOrder);
  };
  const read = session.getData(path, watcher).then(({ stat }) => {
    // A persistent node named like a queue node (made by hand) would never go away: waiting
    // for it would block forever. It holds nothing; skip it from now on and look again.
    if (!isSessionOwned(stat.ephemeralOwner)) {
      waiter.foreign(path);
      wait.end();
      session.forgetWatch(path, 'data', watcher); // nobody waits for it again
      return;
    }
    if (!mark) return;
    const newer = stat.version > mark.version;
    mark.version = Math.max(mark.version, stat.version);
    // Marked after our listing, before our watch was set: the watch will not fire for that.
    if (newer) wait.end();
  }, (error: unknown) => {
    if (ZooKeeperError.is(error, 'NONODE') || ZooKeeperError.isRetryable(error)) wait.end();
    else wait.fail(error);
  });
  // The waiter gave up (timeout, abort, closed): its watch would stand until the predecessor
  // changes, for as long as that one holds. Dropped once the read settled: the watch is
  // registered as its reply is read, and a give-up may come first.
  wait.done.catch(() => void read.then(() => session.forgetWatch(path, 'data', watcher)));
  return wait.done;
}
