import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { Watcher } from '../../zookeeper/types.js';
import { LOCK_DRIVER, type QueueDriver, type Standby } from '../queue/queue-driver.js';
import type { OwnNode } from '../queue/queue-node.js';

/** The watch on our own node that proves, while it stands, that our node still exists. */
interface OwnNodeProof {
  readonly own: OwnNode;
  readonly watcher: Watcher;
  /** The read that set the watch found our node, and the watch has not fired since. */
  standing: boolean;
  /** The watch is not on the server: it fired, or the read that sets it failed (and set none). */
  gone: boolean;
  /** The read that sets the watch, settled (never rejects). */
  read: Promise<void>;
}

/**
 * The exclusive lock's driver (a lock, and the write side of a read/write lock): the paper's
 * queue, plus a hand-off in one notification. A waiter whose predecessor was the head at its last
 * look is granted the moment that node is deleted, without listing again: no node can queue ahead
 * of it (sequence numbers only grow), and the predecessor, having held, is gone.
 *
 * What the skipped listing would also have proven is that our own node still exists (a waiter's
 * node deleted by hand leaves the one behind it to take the lock when the head goes). So while it
 * stands by, the waiter keeps a data watch on its own node, set before the watch on its
 * predecessor: ZooKeeper tells one session's events in order, so had our node been deleted, that
 * watch would have fired before the predecessor's deletion arrived. As in the election's
 * `Succession`, the queue grants this way only on a deletion that arrived in order (no
 * disconnection since the wait began), on the session that made our node.
 *
 * The token is our node's czxid (`fencing.ts`), which the create told us. Once the join is over,
 * the watch is removed (`removeWatches`), so that our own release later notifies nobody but our
 * successor. Hence only where the driver can remove a watch (`exclusiveDriver`).
 *
 * One per join.
 */
export class HandOff implements QueueDriver<never> {
  private proof: OwnNodeProof | undefined;

  constructor(private readonly session: ZkSessionClient) {}

  readonly token = 'own-node';

  /** Right behind the head: the watch on our own node (unless one stands), sent before the queue's watch on the head. */
  standBy(mine: OwnNode): Standby<never> {
    if (this.proof?.own !== mine || this.proof.gone) this.watchOwnNode(mine);
    return {
      stop: () => undefined, // the watch stays for the next wait behind the head, or until `finish`
      grant: () => {
        const proof = this.proof;
        if (proof?.own !== mine || !proof.standing || this.session.sessionId !== mine.sessionId) return undefined;
        return { token: mine.token! };
      },
    };
  }

  finish(): void {
    const proof = this.proof;
    this.proof = undefined;
    if (!proof) return;
    // Granted: the watch stands, and goes before any request of the holder's. Given up while the
    // read that sets it was unanswered: it goes once that read is answered, if it set one.
    const forget = () => void (proof.gone || this.session.forgetWatch(proof.own.path, 'data', proof.watcher));
    if (proof.standing) forget();
    else void proof.read.then(forget);
  }

  /**
   * `getData` rather than `exists`: on a node already gone it leaves no watch behind. The proof
   * stands from the reply, if it found our node, until the watch fires (our node deleted, or
   * marked: either way the next look decides).
   */
  private watchOwnNode(mine: OwnNode): void {
    const proof: OwnNodeProof = {
      own: mine,
      standing: false,
      gone: false,
      watcher: () => void ((proof.gone = true), (proof.standing = false)),
      read: Promise.resolve(),
    };
    this.proof = proof;
    proof.read = this.session.getData(mine.path, proof.watcher).then(
      ({ stat }) => void (proof.standing = !proof.gone && stat.ephemeralOwner === mine.sessionId),
      () => void (proof.gone = true), // our node is gone (NONODE), or no answer: no proof, and the grant falls back to a listing
    );
  }
}

/**
 * The driver of an exclusive queue (a lock, a writer): with the hand-off where the session can
 * remove the watch it leaves (not the C client of `driver: 'native'`), else the plain queue.
 */
export function exclusiveDriver(session: ZkSessionClient): QueueDriver<never> {
  return session.supports('removeWatches') ? new HandOff(session) : LOCK_DRIVER;
}
