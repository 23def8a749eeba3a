import { LockLostError } from '../../errors/lock-lost.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import type { MultiResult } from '../../zookeeper/protocol/multi.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { NodeDeletion } from '../queue/node-removal.js';
import { sessionGone, stateTaken, type GuardedSection } from '../ready/guarded-section.js';
import type { Lease } from './lease.js';

const NONODE = -101;

/**
 * The end of a guarded lock section where the driver has multi: the section's completion (the
 * versioned delete of its ready record, `Completion`) and the release of its lease (the delete of
 * the holder's queue node) in one transaction, so that the end costs one request in one round trip
 * instead of two requests, each waiting for the other's reply. The release is the lease's own
 * (`Lease.release`): its `signal` aborts before the transaction is sent (DESIGN §8.8), and the
 * transaction is sent, and sent again through connection loss, for as long as the session may live
 * (`NodeRemoval.leave`, DESIGN §8.10). All or nothing, the transaction also makes the completion
 * prove that we hold: the record goes only with our node, which exists only while nobody else holds.
 *
 * What the transaction's outcomes mean (our node's delete first, so that its result is never
 * hidden behind the record's):
 * - applied: the section completed and the lock is released;
 * - our node NONODE: on a try after one lost with the connection, that try was applied (nobody else
 *   deletes our node while its session lives); on the first, the lock went without us (the node was
 *   deleted behind our back): the section did not complete, and its record stays for the next holder;
 * - the record BADVERSION under our own token: a write of ours that landed unanswered; the
 *   transaction goes again at that version (`GuardedSection.adoptNewerOwnVersion`);
 * - the record taken (BADVERSION, NONODE): another holder owns the state, the lease was lost
 *   (`LockLostError`, as a two-step completion's); our node is deleted on its own;
 * - the session gone, or the release over because the session can no longer be counted on: the
 *   outcome is unknown (`LockLostError`). Either way the next holder finds a consistent state: the
 *   record gone with our node, or our dirty record, which it repairs.
 */
export class CompletingRelease {
  private settled = false;
  private failure: Error | undefined;

  constructor(
    private readonly session: ZkSessionClient,
    private readonly section: GuardedSection,
    /** Told of a failed release when the completion's failure is what the caller gets. */
    private readonly reportReleaseFailure: (error: unknown) => void,
  ) {}

  /** How `NodeRemoval.leave` deletes our node: in one transaction with the completion. */
  readonly deletion: NodeDeletion = async (path, mayHaveLanded) => {
    for (let adopted = false; ; adopted = true) {
      const completion = this.section.completionOp();
      // Settled already (the session ended while a try was out): the node alone is what is left.
      if (!completion) return this.session.delete(path, -1);
      let results: MultiResult[];
      try {
        results = await this.session.multi([{ type: 'delete', path, version: -1 }, completion]);
      } catch (error) {
        if (error instanceof ZooKeeperError && error.isSessionGone) this.end(sessionGone(completion.path, error));
        throw error; // a connection error is tried again; anything else fails the release (`NodeRemoval`)
      }
      const [node, record] = results;
      if (node?.type !== 'error') return this.end();
      if (node.err === NONODE) {
        return this.end(mayHaveLanded ? undefined : new LockLostError(path, 'its queue node was gone when its guarded section ended'));
      }
      // Our node's delete failed (NOAUTH, say): nothing was applied; the release reports it.
      if (node.err !== 0) throw new ZooKeeperError(node.err, 'delete', path);
      const refused = new ZooKeeperError(record?.type === 'error' ? record.err : 0, 'delete', completion.path);
      if (ZooKeeperError.is(refused, 'BADVERSION') && !adopted && (await this.section.adoptNewerOwnVersion())) continue;
      this.end(ZooKeeperError.is(refused, 'BADVERSION', 'NONODE') ? stateTaken(completion.path) : refused);
      return this.session.delete(path, -1); // the release on its own
    }
  };

  /**
   * Releases `lease`, whose node's delete is `deletion`. Resolves once the section completed and the
   * node is gone; rejects with why the section did not complete (the lease released all the same, or
   * in the background), or else as `lease.release()`.
   */
  async release(lease: Lease): Promise<void> {
    let releaseError: unknown;
    await lease.release().catch((error: unknown) => (releaseError = error ?? new Error('release failed')));
    if (!this.settled && releaseError === undefined) {
      this.end(new LockLostError(lease.path, 'the session ended before the completion of its guarded section was confirmed'));
    }
    if (this.failure) {
      if (releaseError !== undefined) this.reportReleaseFailure(releaseError);
      throw this.failure;
    }
    if (releaseError !== undefined) throw releaseError;
  }

  private end(failure?: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.failure = failure;
    this.section.endedInTransaction(failure);
  }
}
