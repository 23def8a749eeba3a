import { randomUUID } from 'node:crypto';
import type { Subscription } from 'rxjs';
import { SessionClosedError } from '../errors/session-closed.error.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { isConnectedState } from '../zookeeper/session-state.js';
import type { ZkStat } from '../zookeeper/types.js';
import type { ZkSessionClient } from '../zookeeper/zk-session-client.js';
import { ensurePath } from './ensure-path.js';
import { lockToken } from './fencing.js';
import { NodeRemoval, type QueueLogger } from './node-removal.js';
import { isSessionOwned, queueNodePrefix, sortQueue, type QueueMarker } from './queue-node.js';
import { WaitControl } from './wait-control.js';
import { basenameOf } from './znode-paths.js';

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

/** Our node in the queue. */
export interface QueueNode {
  readonly path: string;
  /** Its name in the directory (`_c_<uuid>-<marker>-<seq10>`). */
  readonly name: string;
  /** The session that owns it. */
  readonly sessionId: string;
}

/**
 * What differs between the recipes on the queue (as Curator's lock driver): the queue runs DESIGN
 * §3 and asks its driver at these points. A lock's is `LOCK_DRIVER`; an election's is its
 * `Succession`, one per `join`.
 */
export interface QueueDriver<P = unknown> {
  /** The token of a grant by listing (`grantingListing`: the directory's stat in that listing). */
  grantToken(grantingListing: ZkStat): bigint;
  /**
   * Sent right behind every listing (ZooKeeper answers one session in order, so it sees the queue
   * as that listing does): what the caller needs once at the head arrives in the same round trip
   * as the listing that puts it there. The entry carries the granting one.
   */
  prefetch?(): Promise<P>;
  /**
   * Sent with each look once our node's path is known: a check of our node, resolving false when
   * it is gone or not ours (queue again at the back). `wake` ends the current wait for the
   * predecessor early. Undefined: nothing to check this time.
   */
  checkOwnNode?(mine: QueueNode, wake: () => void): Promise<boolean> | undefined;
  /**
   * While we wait right behind the node that headed the queue at our last look: a way to be
   * granted when it goes, without looking again (see `Succession`).
   */
  standBy?(mine: QueueNode): Standby<P>;
}

/** A grant that needs no look (see `QueueDriver.standBy`). */
export interface Standby<P> {
  /** The head's deletion arrived in order: the grant, or undefined to look again as usual. */
  grant(): { readonly token: bigint; readonly prefetched: Promise<P> } | undefined;
  /** The wait is over, whatever ended it. */
  stop(): void;
}

/** The lock's driver: the paper's queue as it is, its token the granting listing's `pzxid`. */
export const LOCK_DRIVER: QueueDriver<never> = { grantToken: lockToken };

export interface JoinOptions<P = unknown> {
  /** Stored in our node: who we are, for `participants()` and the inspector. */
  readonly data?: Buffer;
  readonly signal?: AbortSignal;
  /** `undefined`: wait as long as it takes; `0`: try once, do not queue. */
  readonly waitMs?: number;
  readonly dirMode?: 'persistent' | 'container';
  /** Default: `LOCK_DRIVER`. */
  readonly driver?: QueueDriver<P>;
}

/** The state of one `join` across its looks at the queue. */
interface Attempt {
  readonly dir: string;
  readonly id: string;
  readonly prefix: string;
  mine: QueueNode | undefined;
  /** Session of a create whose reply was lost: the node may exist; find it before creating again. */
  unknownCreate: string | undefined;
  /** Ends the current wait for the predecessor early (our own node changed). */
  wake: (() => void) | undefined;
  /** The look at the queue whose requests are still unanswered (a stop does not wait for it). */
  inFlight: Promise<unknown> | undefined;
}

/** Where one look at the queue left us. */
type Place =
  | { readonly kind: 'retry' }
  | { readonly kind: 'head'; readonly token: bigint; readonly prefetched: Promise<unknown> | undefined }
  | { readonly kind: 'behind'; readonly predecessor: string; readonly predecessorLeads: boolean };
const RETRY: Place = { kind: 'retry' };

const noop = () => undefined;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long a stopped `join` waits for a look that is still unanswered (many round trips, also on a loaded machine) before giving up in the background. */
const IN_FLIGHT_GRACE_MS = 250;

/** Resolves when `work` does, or after `ms`, whichever comes first (`work` goes on). */
function withGrace(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work, grace]).finally(() => clearTimeout(timer));
}

function granted<P>(dir: string, mine: QueueNode, token: bigint, waited: boolean, prefetched: Promise<P> | undefined): QueueEntry<P> {
  return { dir, path: mine.path, sessionId: mine.sessionId, token, waited, prefetched };
}

/** A request failure after which the loop should simply look again once connected. */
function isRetryable(error: unknown): boolean {
  return error instanceof ZooKeeperError && (error.isConnectionError || error.isSessionGone);
}

/**
 * The fair queue of the ZooKeeper paper (§2.4) that both locks and elections stand on:
 * ephemeral sequential nodes, the lowest sequence holds, each waiter watches only its
 * immediate predecessor (one notification per release, no herd), and re-lists after every
 * wake-up because the predecessor may have been a waiter that left, not the holder. What
 * differs between recipes is the driver's (`QueueDriver`).
 */
export class FairQueue {
  /** Persistent look-alikes of queue nodes (see `isSessionOwned`): left out of every later look at the queue. */
  private readonly foreign = new Set<string>();

  private readonly removal: NodeRemoval;

  constructor(
    private readonly session: ZkSessionClient,
    private readonly marker: QueueMarker,
    /** Told of a delete that failed in the background, after `leave` had resolved. */
    logger?: QueueLogger,
  ) {
    this.removal = new NodeRemoval(session, logger);
  }

  /**
   * Queues up in `dir` and resolves once we are at the head. Resolves `undefined` when
   * `waitMs` is 0 and someone else is ahead. Rejects with `LockTimeoutError`,
   * `LockAbortedError` or `SessionClosedError`, having given up our place first (in the
   * background when the connection is down or a request of ours is unanswered: a stop never
   * waits for the ensemble, and the node goes once the session is back, or with the session).
   */
  async join<P = never>(dir: string, options: JoinOptions<P> = {}): Promise<QueueEntry<P> | undefined> {
    const driver = (options.driver ?? LOCK_DRIVER) as QueueDriver<P>;
    const id = randomUUID();
    const attempt: Attempt = { dir, id, prefix: queueNodePrefix(dir, id, this.marker), mine: undefined, unknownCreate: undefined, wake: undefined, inFlight: undefined };
    const control = WaitControl.create(dir, options.signal, options.waitMs);
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
          await this.leave(mine.path, mine.sessionId);
          return undefined;
        }
        waited = true;
        const standby = place.predecessorLeads ? driver.standBy?.(mine) : undefined;
        let departed: boolean;
        try {
          departed = await this.waitForDeletion(place.predecessor, attempt, control);
        } finally {
          standby?.stop();
        }
        const grant = departed ? standby?.grant() : undefined;
        if (grant) return granted(dir, mine, grant.token, waited, grant.prefetched);
      }
    } catch (error) {
      // Stopped (timeout, abort, closed) or failed: give up our place before telling the caller.
      const inFlight = attempt.inFlight;
      if (inFlight) {
        // Stopped while a look was unanswered (a create, say): what it made is known only once it
        // settles, so our place is given up then. A healthy round trip ends within the grace and
        // the caller finds the queue clean; a reply stuck in a connection that the client has not
        // declared dead yet (that takes up to 2/3 of the session timeout) must not hold up the
        // stop: the give-up then finishes in the background.
        const giveUp = () => this.giveUp(attempt);
        await withGrace(inFlight.then(giveUp, giveUp), IN_FLIGHT_GRACE_MS);
      } else {
        const left = this.giveUp(attempt);
        // Connected: one round trip, worth waiting for. Otherwise it finishes in the background
        // once the session is back (or gone, taking the node with it): a timeout must not wait.
        if (isConnectedState(this.session.state)) await left;
      }
      throw error;
    } finally {
      control?.dispose();
    }
  }

  /** `look`, unless `control` stops first: a stop must not wait for a request that is not answered. */
  private unlessStopped<T>(attempt: Attempt, look: Promise<T>, control: WaitControl | undefined): Promise<T> {
    if (!control) return look;
    attempt.inFlight = look;
    const settled = () => void (attempt.inFlight = undefined);
    look.then(settled, settled);
    return new Promise<T>((resolve, reject) => {
      const stopListening = control.onStop(() => reject(control.reason));
      if (control.stopped) reject(control.reason);
      look.then(resolve, reject).finally(stopListening);
    });
  }

  /** Gives up our place in the queue, or makes sure that a create whose outcome is unknown leaves nothing. Never rejects. */
  private async giveUp(attempt: Attempt): Promise<void> {
    const { mine, unknownCreate, dir, id } = attempt;
    attempt.mine = undefined;
    attempt.unknownCreate = undefined;
    if (mine) await this.leave(mine.path, mine.sessionId).catch((error: unknown) => this.report(error));
    else if (unknownCreate !== undefined) void this.removeUnknownCreate(dir, id, unknownCreate);
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
    let owned: Promise<boolean> | undefined;
    try {
      if (attempt.unknownCreate !== undefined) {
        attempt.mine = await this.findOwnNode(attempt.dir, attempt.id, sessionId);
        attempt.unknownCreate = undefined;
        return RETRY;
      }
      if (attempt.mine) {
        const listed = this.session.getChildren(attempt.dir);
        prefetched = driver.prefetch?.();
        owned = driver.checkOwnNode?.(attempt.mine, this.waker(attempt, attempt.mine));
        listing = await listed;
      } else {
        const created = this.session.create(attempt.prefix, options.data, 'ephemeral_sequential');
        // Sent right behind the create, without waiting for its reply: ZooKeeper executes one
        // session's requests in order, so this listing already contains our node. One round trip.
        const listed = this.session.getChildren(attempt.dir);
        listed.catch(noop);
        prefetched = driver.prefetch?.();
        try {
          const path = await created;
          attempt.mine = { path, name: basenameOf(path), sessionId };
          owned = driver.checkOwnNode?.(attempt.mine, this.waker(attempt, attempt.mine));
        } catch (error) {
          if (ZooKeeperError.is(error, 'NONODE')) {
            await ensurePath(this.session, attempt.dir, options.dirMode ?? 'container');
            return RETRY;
          }
          // The create may have been applied; only a listing after reconnection can tell.
          if (error instanceof ZooKeeperError && error.isConnectionError) attempt.unknownCreate = sessionId;
          throw error;
        }
        listing = await listed;
      }
      if (owned && !(await owned)) {
        attempt.mine = undefined; // gone (or, made by hand, not ours): re-queue at the back
        return RETRY;
      }
    } catch (error) {
      if (ZooKeeperError.is(error, 'NONODE')) {
        attempt.mine = undefined; // the directory (and so our node) is gone
        return RETRY;
      }
      if (!isRetryable(error)) throw error;
      await this.pause(control);
      return RETRY;
    }
    const queue = sortQueue(listing.children, this.marker).filter((node) => !this.foreign.has(`${attempt.dir}/${node.name}`));
    const index = queue.findIndex((node) => node.name === attempt.mine!.name);
    if (index < 0) {
      attempt.mine = undefined; // deleted under us (expired session, or by hand): re-queue at the back
      return RETRY;
    }
    if (index === 0) return { kind: 'head', token: driver.grantToken(listing.stat), prefetched };
    return { kind: 'behind', predecessor: `${attempt.dir}/${queue[index - 1]!.name}`, predecessorLeads: index === 1 };
  }

  /** Ends the wait of `attempt` early, if `node` is still its node. */
  private waker(attempt: Attempt, node: QueueNode): () => void {
    return () => {
      if (attempt.mine === node) attempt.wake?.();
    };
  }

  /**
   * Deletes our node `path` of session `sessionId`: resolves once it is gone, or once that session
   * can no longer be counted on (then it goes on in the background). See `NodeRemoval.leave`.
   */
  leave(path: string, sessionId: string): Promise<void> {
    return this.removal.leave(path, sessionId);
  }

  /** A failure that no caller waits for any more: never dropped silently. */
  private report(error: unknown): void {
    this.removal.report(error);
  }

  /** After a lost create reply: adopt the node carrying our uuid if our session owns it, else delete it. */
  private async findOwnNode(dir: string, id: string, sessionId: string): Promise<QueueNode | undefined> {
    let children: string[];
    try {
      // The server we reconnected to may lag behind the one that took our create: without the
      // sync, the listing could miss a create that is applied a moment later, and we would create
      // a second node behind an ephemeral of our own live session, stuck for good. After the sync
      // (it goes through the leader) the listing shows every create of ours that was proposed;
      // one still on its way through the old server is refused as SESSIONMOVED, since the session
      // has moved.
      await this.session.sync(dir);
      ({ children } = await this.session.getChildren(dir));
    } catch (error) {
      // No directory, so no node of ours in it: the create never happened (or the container went
      // since). Letting NONODE escape would make `join` look for the node again, forever.
      if (ZooKeeperError.is(error, 'NONODE')) return undefined;
      throw error;
    }
    // Every child with our uuid, not just the first listed: another session may hold one too (a
    // session abandoned while the ensemble was unreachable, which the server kept alive, made it
    // for this very acquisition), and the server lists children in no particular order. Stopping
    // at a foreign one would leave ours behind, an orphan of our live session blocking the queue.
    let own: { path: string; name: string } | undefined;
    for (const name of children.filter((child) => child.startsWith(`_c_${id}-`))) {
      const path = `${dir}/${name}`;
      const stat = await this.session.exists(path);
      if (stat?.ephemeralOwner === sessionId) own = { path, name };
      // Made by hand, or by another session with our uuid: not ours to use, nor to wait behind.
      else if (stat) await this.session.delete(path, -1).catch((error: unknown) => this.report(error));
    }
    if (!own) return undefined;
    // The lost reply was the create's, so its setAcl never went out. A node we cannot protect
    // is not used (an AclNotAppliedError tells why).
    await this.session.secure(own.path).catch(async (error: unknown) => {
      await this.leave(own.path, sessionId).catch((failure: unknown) => this.report(failure));
      throw error;
    });
    return { ...own, sessionId };
  }

  /**
   * The caller gave up while a create's outcome was unknown: make sure no orphan stays. In the
   * background, for as long as the session may live (a new session means the node, if any, is gone).
   */
  private async removeUnknownCreate(dir: string, id: string, sessionId: string): Promise<void> {
    for (;;) {
      try {
        await this.session.waitForConnection();
        if (this.session.sessionId !== sessionId) return;
        const node = await this.findOwnNode(dir, id, sessionId);
        if (node) await this.leave(node.path, node.sessionId);
        return;
      } catch (error) {
        if (error instanceof SessionClosedError) return; // closing the session removed the node
        if (!isRetryable(error)) return this.report(error);
        if (isConnectedState(this.session.state)) await delay(20);
      }
    }
  }

  /**
   * Waits until `path` is deleted (one-shot data watch), our session changes, our own node's
   * watch fires, or `control` stops. Resolves true only when the watch reported the deletion in
   * order: with no disconnection meanwhile. (On reconnection the server fires the watches whose
   * nodes changed while we were away all at once, in no particular order: the deletion of our own
   * node, or a change of what a standby watches, may then come after the predecessor's.)
   * `getData` rather than `exists`: on a node that is already gone it leaves no watch behind (an
   * `exists` watch would wait forever for a creation that never comes).
   */
  private waitForDeletion(path: string, attempt: Attempt, control: WaitControl | undefined): Promise<boolean> {
    const sessionId = attempt.mine!.sessionId;
    return new Promise<boolean>((resolve, reject) => {
      let settled = false;
      let inOrder = true;
      let subscription: Subscription | undefined;
      let stopListening: (() => void) | undefined;
      const finish = (error?: unknown, departed = false) => {
        if (settled) return; // stale watch callbacks and late replies land here
        settled = true;
        attempt.wake = undefined;
        subscription?.unsubscribe();
        stopListening?.();
        if (error === undefined) resolve(departed && inOrder);
        else reject(error);
      };
      // state$ replays the current state synchronously, so `finish` may run inside subscribe().
      subscription = this.session.state$.subscribe((change) => {
        // A suspended session keeps its watches (the C client re-registers them on reconnection);
        // an expired or replaced one does not, and our node went with it.
        if (change.state === 'expired' || change.state === 'closed' || (change.state === 'connected' && change.sessionId !== sessionId)) {
          finish();
        }
        if (!isConnectedState(change.state)) inOrder = false;
      });
      if (settled) {
        subscription.unsubscribe();
        return;
      }
      attempt.wake = () => finish();
      if (control) {
        stopListening = control.onStop(() => finish(control.reason));
        if (control.stopped) finish(control.reason);
      }
      this.session.getData(path, (event) => finish(undefined, event.type === 'deleted')).then(({ stat }) => {
        // A persistent node named like a queue node (made by hand) would never go away: waiting
        // for it would block forever. It holds nothing; skip it from now on and look again.
        if (!isSessionOwned(stat.ephemeralOwner)) {
          this.foreign.add(path);
          finish();
        }
      }, (error: unknown) => {
        if (ZooKeeperError.is(error, 'NONODE') || isRetryable(error)) finish();
        else finish(error);
      });
    });
  }

  /** A short pause after a retryable failure, so that a state change can land; interrupted by `control`. */
  private pause(control: WaitControl | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(done, 20);
      const stopListening = control?.onStop(done);
      function done() {
        clearTimeout(timer);
        stopListening?.();
        if (control?.stopped) reject(control.reason);
        else resolve();
      }
    });
  }
}
