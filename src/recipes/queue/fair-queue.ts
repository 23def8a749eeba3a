import { randomUUID } from 'node:crypto';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { ZooKeeperUnreachableError } from '../../errors/zookeeper-unreachable.error.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import type { ZkStat } from '../../zookeeper/types.js';
import { basenameOf } from '../../zookeeper/znode-path.js';
import { listingToken, queueNodeToken, tokenOf } from '../fencing.js';
import { ChildWatch } from './child-watch.js';
import { sendDirectoryCreate, settleDirectoryCreate } from './ensure-path.js';
import { LostCreate } from './lost-create.js';
import { NodeRemoval, type NodeDeletion, type QueueLogger } from './node-removal.js';
import { waitForQueueChange } from './queue-change.js';
import { waitForDeletion, type MarkSeen, type Waiter } from './predecessor-wait.js';
import { queueNodePrefix, sortQueue, type MarkerText, type OwnNode, type QueueMarker } from './queue-node.js';
import { LOCK_DRIVER, placeIn, type QueueDriver } from './queue-driver.js';
import { pauseUnlessStopped, unlessStopped, WaitControl, withGrace } from './wait-control.js';

/** Our place at the head of a queue (`P`: what the driver's `prefetch` reads). */
export interface QueueEntry<P = unknown> {
  readonly dir: string;
  /** Full path of our EPHEMERAL_SEQUENTIAL node. */
  readonly path: string;
  /** The session that owns the node: the entry dies with it. */
  readonly sessionId: string;
  /** The fencing token (see `fencing.ts`): strictly increases over grants, from the driver. */
  readonly token: bigint;
  /** Not at the head on the first look: we waited for a predecessor to leave (a hand-off). */
  readonly waited: boolean;
  /** What the driver's `prefetch` sent along with the granting look. */
  readonly prefetched?: Promise<P>;
}

export interface JoinOptions<P = unknown> {
  /** Stored in our node: who we are, for `participants()` and the inspector. */
  readonly data?: Buffer;
  readonly signal?: AbortSignal;
  /** `undefined`: wait as long as it takes; `0`: try once, do not queue. */
  readonly waitMs?: number;
  readonly dirMode?: 'persistent' | 'container';
  /** What our node queues for (its name's marker); one of the queue's. Default: the queue's first. */
  readonly marker?: MarkerText;
  /** Default: `LOCK_DRIVER`. */
  readonly driver?: QueueDriver<P>;
}

/** The state of one `join` across its looks at the queue. */
interface Attempt extends Waiter {
  readonly dir: string;
  readonly id: string;
  readonly prefix: string;
  mine: OwnNode | undefined;
  /** Session of a create whose reply was lost: the node may exist; find it before creating again. */
  unknownCreate: string | undefined;
  /** Our node's create found no directory: the next look sends its create first (see `sendDirectoryCreate`). */
  dirMissing: boolean;
  /** The next listing arms a child watch (the driver's `'queue'` wait, see `QueuePlace`). */
  watchQueue: boolean;
  /** The node the last wait was for, and what those waits saw of its marks (see `MarkSeen`). */
  waitedFor: { readonly path: string; readonly mark: MarkSeen } | undefined;
  /** The look at the queue whose requests are still unanswered (a stop does not wait for it). */
  inFlight: Promise<unknown> | undefined;
}

/** Where one look at the queue left us. */
type Place =
  | { readonly kind: 'retry' }
  | { readonly kind: 'head'; readonly token: bigint; readonly prefetched: Promise<unknown> | undefined }
  | { readonly kind: 'behind'; readonly predecessor: string; readonly predecessorHeads: boolean; readonly untilGranted: boolean }
  /** Wait for the queue's next change: `watch` was armed by the listing, or (undefined) the listing must be repeated armed. */
  | { readonly kind: 'queue'; readonly watch: ChildWatch | undefined; readonly ahead: readonly string[] };
const RETRY: Place = { kind: 'retry' };

const noop = () => undefined;

/** How long a stopped `join` waits for a look that is still unanswered (many round trips, also on a loaded machine) before giving up in the background. */
const IN_FLIGHT_GRACE_MS = 250;

function granted<P>(dir: string, mine: OwnNode, token: bigint, waited: boolean, prefetched: Promise<P> | undefined): QueueEntry<P> {
  return { dir, path: mine.path, sessionId: mine.sessionId, token, waited, prefetched };
}

// Why this file is long: it is the queue protocol of DESIGN §3 in one place: one look at the queue
// (create, list, place; the lost create and the missing directory), the join loop around it, and
// giving our place up however the join stops. The pieces that stand alone live next to it.

/**
 * The fair queue of the ZooKeeper paper (§2.4) that every recipe stands on: ephemeral
 * sequential nodes, the lowest sequence holds, each waiter watches only its immediate
 * predecessor (one notification per release, no herd), and re-lists after every wake-up
 * because the predecessor may have been a waiter that left, not the holder. What differs
 * between recipes is the driver's (`QueueDriver`): who else holds, and whom a waiter watches (a
 * reader the nearest writer ahead, a semaphore's first waiter the queue itself).
 */
export class FairQueue {
  /** Persistent look-alikes of queue nodes (see `isSessionOwned`): left out of every later look at the queue. */
  private readonly foreign = new Set<string>();

  private readonly removal: NodeRemoval;
  private readonly lostCreate: LostCreate;

  constructor(
    private readonly session: ZkSessionClient,
    /** The kinds of nodes that queue in its directories, in one order: a lock's `lock`, a read/write lock's `read` and `write`. */
    private readonly markers: readonly QueueMarker[],
    /** Told of a delete that failed in the background, after `leave` had resolved. */
    logger?: QueueLogger,
  ) {
    this.removal = new NodeRemoval(session, logger);
    this.lostCreate = new LostCreate(session, this.removal);
  }

  /**
   * Queues up in `dir` and resolves once we hold: at the head, or wherever the driver's `placeOf`
   * says we hold. Resolves `undefined` when `waitMs` is 0 and we do not hold at once; with `waitMs`
   * 0 on a disconnected session (or one that disconnects before the answer) rejects with
   * `ZooKeeperUnreachableError` instead of waiting for it. Rejects with `LockTimeoutError`,
   * `LockAbortedError` or `SessionClosedError`, having given up our place first (in the
   * background when the connection is down or a request of ours is unanswered: a stop never
   * waits for the ensemble, and the node goes once the session is back, or with the session).
   */
  async join<P = never>(dir: string, options: JoinOptions<P> = {}): Promise<QueueEntry<P> | undefined> {
    const driver = (options.driver ?? LOCK_DRIVER) as QueueDriver<P>;
    const id = randomUUID();
    const attempt: Attempt = {
      dir,
      id,
      prefix: queueNodePrefix(dir, id, options.marker ?? (this.markers[0] as MarkerText)),
      mine: undefined,
      unknownCreate: undefined,
      dirMissing: false,
      watchQueue: false,
      waitedFor: undefined,
      wake: undefined,
      inFlight: undefined,
      foreign: (path) => this.foreign.add(path),
    };
    const control = WaitControl.create(dir, options.signal, options.waitMs, this.session);
    let waited = false;
    try {
      for (;;) {
        control?.throwIfStopped();
        if (!isConnectedState(this.session.state)) await this.session.waitForConnection(control?.signal);
        // Only the predecessor's path outlives this call: parked waiters hold no listing
        // (N waiters holding N listings of N names would cost O(N²) heap).
        const place = await this.unlessStopped(attempt, this.locate(attempt, options, driver, control), control);
        if (place.kind === 'retry') continue;
        const mine = attempt.mine!;
        if (place.kind === 'head') return granted(dir, mine, place.token, waited, place.prefetched as Promise<P> | undefined);
        if (options.waitMs === 0) {
          attempt.mine = undefined;
          await this.leaveUnlessStopped(mine, control);
          return undefined;
        }
        waited = true;
        if (place.kind === 'queue') {
          if (place.watch) await waitForQueueChange(this.session, place.watch, mine.sessionId, control, attempt, place.ahead);
          else attempt.watchQueue = true; // list again, armed
          continue;
        }
        attempt.watchQueue = place.untilGranted;
        // Waiting for the same node again (the last wait was woken by no grant, or failed): a mark
        // counts if it is newer than what those waits saw, so a grant made since is heeded and a
        // mark made by hand wakes us once, not in a loop.
        if (attempt.waitedFor?.path !== place.predecessor) attempt.waitedFor = { path: place.predecessor, mark: { version: 0 } };
        const mark = place.untilGranted ? attempt.waitedFor.mark : undefined;
        const standby = place.predecessorHeads ? driver.standBy?.(mine) : undefined;
        let departed: boolean;
        try {
          departed = await waitForDeletion(this.session, place.predecessor, mine.sessionId, attempt, control, mark);
        } finally {
          standby?.stop();
        }
        const grant = departed ? standby?.grant() : undefined;
        if (grant) return granted(dir, mine, grant.token, waited, grant.prefetched);
      }
    } catch (error) {
      // Stopped (timeout, abort, closed) or failed: give up our place before telling the caller.
      // A look whose node is known has nothing left to make (only its listing is unanswered): our
      // place is given up at once, its delete sent behind that listing.
      const inFlight = attempt.mine ? undefined : attempt.inFlight;
      if (inFlight) {
        // Stopped while a create was unanswered: what it made is known only once it settles, so
        // our place is given up then. A healthy round trip ends within the grace and the caller
        // finds the queue clean; a reply stuck in a connection that the client has not declared
        // dead yet (that takes up to 2/3 of the session timeout) must not hold up the stop: the
        // give-up then finishes in the background.
        const giveUp = () => this.giveUp(attempt);
        await withGrace(inFlight.then(giveUp, giveUp), IN_FLIGHT_GRACE_MS);
      } else {
        const left = this.giveUp(attempt);
        // Connected: one round trip, worth waiting for. Otherwise it finishes in the background
        // once the session is back (or gone, taking the node with it): a timeout must not wait,
        // nor a try-once that lost its connection (the state may not show it yet).
        if (isConnectedState(this.session.state) && !(error instanceof ZooKeeperUnreachableError)) await left;
      }
      throw error;
    } finally {
      control?.dispose();
      driver.finish?.();
    }
  }

  /** `look`, unless `control` stops first (see `unlessStopped`); kept as the attempt's look in flight until it settles. */
  private unlessStopped<T>(attempt: Attempt, look: Promise<T>, control: WaitControl | undefined): Promise<T> {
    if (!control) return look;
    attempt.inFlight = look;
    const settled = () => void (attempt.inFlight = undefined);
    look.then(settled, settled);
    return unlessStopped(look, control);
  }

  /**
   * A busy try's give-up: waits for the delete of `mine`, unless `control` stops first (the session
   * disconnected): the answer (busy) is known, and a try-once does not wait for the ensemble; the
   * delete then finishes in the background once the session is back (or the node goes with it).
   */
  private async leaveUnlessStopped(mine: OwnNode, control: WaitControl | undefined): Promise<void> {
    const left = this.leave(mine.path, mine.sessionId);
    try {
      await unlessStopped(left, control);
    } catch (error) {
      if (!control?.stopped || error !== control.reason) throw error;
      left.catch((failure: unknown) => this.report(failure));
    }
  }

  /** Gives up our place in the queue, or makes sure that a create whose outcome is unknown leaves nothing. Never rejects. */
  private async giveUp(attempt: Attempt): Promise<void> {
    const { mine, unknownCreate, dir, id } = attempt;
    attempt.mine = undefined;
    attempt.unknownCreate = undefined;
    if (mine) await this.leave(mine.path, mine.sessionId).catch((error: unknown) => this.report(error));
    else if (unknownCreate !== undefined) void this.lostCreate.removeOrphan(dir, id, unknownCreate);
  }

  /**
   * One look at the queue: creates our node if we have none (with the listing pipelined behind
   * the create), else lists, and tells where we stand. Failures that only need another look
   * (connection loss, a replaced session, a vanished directory) come back as `retry`.
   */
  private async locate<P>(attempt: Attempt, options: JoinOptions<P>, driver: QueueDriver<P>, control: WaitControl | undefined): Promise<Place> {
    const sessionId = this.session.sessionId!;
    if (attempt.mine && attempt.mine.sessionId !== sessionId) attempt.mine = undefined; // died with its session: re-queue at the back
    if (attempt.unknownCreate !== undefined && attempt.unknownCreate !== sessionId) attempt.unknownCreate = undefined;
    let listing: { children: string[]; stat: ZkStat };
    let prefetched: Promise<unknown> | undefined;
    let ownStat: Promise<ZkStat | null> | undefined;
    let mineRead: OwnNode | undefined; // the node that `ownStat` reads
    let queueWatch: ChildWatch | undefined;
    try {
      if (attempt.unknownCreate !== undefined) {
        attempt.mine = await this.lostCreate.adopt(attempt.dir, attempt.id, sessionId);
        attempt.unknownCreate = undefined;
        return RETRY;
      }
      if (attempt.mine) {
        queueWatch = attempt.watchQueue ? new ChildWatch() : undefined;
        const listed = this.session.getChildren(attempt.dir, queueWatch?.watcher);
        prefetched = driver.prefetch?.();
        mineRead = attempt.mine;
        ownStat = this.readOwnNode(mineRead, attempt, driver, 'listed');
        listing = await listed;
      } else {
        // The last look found no directory: its create goes first (see `sendDirectoryCreate`).
        const dirMade = attempt.dirMissing ? sendDirectoryCreate(this.session, attempt.dir, options.dirMode ?? 'container') : undefined;
        attempt.dirMissing = false;
        const created = this.createOwnNode(attempt.prefix, options.data);
        // Sent right behind the create, without waiting for its reply: ZooKeeper executes one
        // session's requests in order, so this listing already contains our node. One round trip.
        const listed = this.session.getChildren(attempt.dir);
        listed.catch(noop);
        prefetched = driver.prefetch?.();
        try {
          const { path, czxid } = await created;
          attempt.mine = { path, name: basenameOf(path), sessionId, token: czxid === undefined ? undefined : queueNodeToken(czxid) };
          mineRead = attempt.mine;
          ownStat = this.readOwnNode(mineRead, attempt, driver, 'created');
          if (dirMade) await settleDirectoryCreate(this.session, attempt.dir, await dirMade);
        } catch (error) {
          if (ZooKeeperError.is(error, 'NONODE')) {
            attempt.dirMissing = true; // none yet, or swept as an empty container: the next look makes it
            await settleDirectoryCreate(this.session, attempt.dir, await dirMade);
            return RETRY;
          }
          // The create may have been applied; only a listing after reconnection can tell.
          if (error instanceof ZooKeeperError && error.isConnectionError) attempt.unknownCreate = sessionId;
          throw error;
        }
        listing = await listed;
      }
      if (ownStat && mineRead) {
        const stat = await ownStat;
        if (stat?.ephemeralOwner !== sessionId) {
          attempt.mine = undefined; // gone (or, made by hand, not ours): re-queue at the back
          return RETRY;
        }
        mineRead.token ??= queueNodeToken(stat.czxid);
      }
    } catch (error) {
      if (ZooKeeperError.is(error, 'NONODE')) {
        attempt.mine = undefined; // the directory (and so our node) is gone
        return RETRY;
      }
      if (!ZooKeeperError.isRetryable(error)) throw error;
      // A try-once gets one look: a connection lost under it is its answer. The state change may
      // come later (the C client notices a silent link only after its read timeout), or, when the
      // connection broke as the request went out, the `zookeeper` package may never report it.
      if (options.waitMs === 0 && error instanceof ZooKeeperError && error.isConnectionError) {
        throw new ZooKeeperUnreachableError(attempt.dir, `${error.zkCode} on ${error.operation}`, { cause: error });
      }
      await pauseUnlessStopped(control);
      return RETRY;
    }
    const mine = attempt.mine;
    if (!mine) return RETRY; // given up while the listing was unanswered: the join has stopped
    const queue = sortQueue(listing.children, this.markers).filter((node) => !this.foreign.has(`${attempt.dir}/${node.name}`));
    const index = queue.findIndex((node) => node.name === mine.name);
    if (index < 0) {
      attempt.mine = undefined; // deleted under us (expired session, or by hand): re-queue at the back
      return RETRY;
    }
    const place = placeIn(driver, queue, index);
    if (driver.token === 'own-node') mine.token ??= listingToken(listing.stat, queue[index]!.sequence);
    if (place.holds) {
      // At the head without our token (the C client, and a node created behind ours before this
      // listing): the next look reads our node's stat along with the listing (`readOwnNode`).
      if (driver.token === 'own-node' && mine.token === undefined) return RETRY;
      return { kind: 'head', token: tokenOf(driver.token, { listing: listing.stat, ownToken: mine.token }), prefetched };
    }
    if (index === 0) throw new RangeError(`the head of ${attempt.dir} must hold`);
    if (place.watch === 'queue') return { kind: 'queue', watch: queueWatch, ahead: queue.slice(0, index).map((node) => `${attempt.dir}/${node.name}`) };
    if (!(place.watch >= 0 && place.watch < index)) throw new RangeError(`a waiter must watch a node ahead of it, not ${place.watch} of ${index}`);
    return { kind: 'behind', predecessor: `${attempt.dir}/${queue[place.watch]!.name}`, predecessorHeads: place.watch === 0 && index === 1, untilGranted: place.untilGranted === true };
  }

  /**
   * Creates our node: with `create2` where the driver has it, whose reply carries the czxid (our
   * token, see `fencing.ts`); the C client has only `create`, and the token then comes from the
   * listing (`listingToken`) or a read. Sent synchronously: the listing sent right after is answered after it.
   */
  private createOwnNode(prefix: string, data: Buffer | undefined): Promise<{ path: string; czxid?: bigint }> {
    if (!this.session.supports('create2')) return this.session.create(prefix, data, 'ephemeral_sequential').then((path) => ({ path }));
    return this.session.create2(prefix, data ?? null, 'ephemeral_sequential').then(({ path, stat }) => ({ path, czxid: stat.czxid }));
  }

  /**
   * Sent with a look once our node's path is known: the driver's check of our node, or, while the
   * token our driver needs is unknown, a plain read of its stat; not on the look that `created` our
   * node, whose listing almost always gives the token (see `listingToken`).
   */
  private readOwnNode(mine: OwnNode, attempt: Attempt, driver: QueueDriver<unknown>, look: 'created' | 'listed'): Promise<ZkStat | null> | undefined {
    const plainRead = look === 'listed' && driver.token === 'own-node' && mine.token === undefined;
    const read = driver.checkOwnNode?.(mine, this.waker(attempt, mine)) ?? (plainRead ? this.session.exists(mine.path) : undefined);
    read?.catch(noop); // awaited by the look that sent it, unless the listing failed first
    return read;
  }

  /** Ends the wait of `attempt` early, if `node` is still its node. */
  private waker(attempt: Attempt, node: OwnNode): () => void {
    return () => {
      if (attempt.mine === node) attempt.wake?.();
    };
  }

  /**
   * Deletes our node `path` of session `sessionId`: resolves once it is gone, or once that session
   * can no longer be counted on (then it goes on in the background). See `NodeRemoval.leave`.
   */
  leave(path: string, sessionId: string, deletion?: NodeDeletion): Promise<void> {
    return this.removal.leave(path, sessionId, deletion);
  }

  /** A failure that no caller waits for any more: never dropped silently. */
  private report(error: unknown): void {
    this.removal.report(error);
  }
}
