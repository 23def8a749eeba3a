import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { LockTimeoutError } from '../../errors/lock-timeout.error.js';
import { SemaphorePermitsMismatchError } from '../../errors/semaphore-permits-mismatch.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { ZkStat } from '../../zookeeper/types.js';
import { lockToken } from '../fencing.js';
import { ensurePath } from '../queue/ensure-path.js';
import { FairQueue, type QueueEntry } from '../queue/fair-queue.js';
import { NodeRemoval, type QueueLogger } from '../queue/node-removal.js';
import type { QueueDriver } from '../queue/queue-driver.js';
import { pauseUnlessStopped, unlessStopped, WaitControl } from '../queue/wait-control.js';
import { znodePaths } from '../znode-paths.js';
import { ChildWatch } from './child-watch.js';

/** What one semaphore acquisition asks for. */
export interface PermitRequest {
  /** The semaphore's capacity. Every user of one semaphore must give the same. */
  readonly permits: number;
  /** Permits taken at once, all or nothing (1 ≤ take ≤ permits). */
  readonly take: number;
}

export interface TakeOptions {
  readonly data?: Buffer;
  /** For the whole acquisition (turnstile and permits): `undefined` waits, `0` tries once. */
  readonly waitMs?: number;
  readonly signal?: AbortSignal;
}

/** A lease node's name: `_c_<uuid>-<take>of<permits>`, the permits it holds and the capacity it was granted under. */
const LEASE_NODE = /^_c_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-(\d{1,9})of(\d{1,9})$/;

/** A lease node's permits, or undefined for a child that is none (left out of the count). */
export function parseLeaseNode(name: string): PermitRequest | undefined {
  const match = LEASE_NODE.exec(name);
  return match ? { take: Number(match[1]), permits: Number(match[2]) } : undefined;
}

/**
 * The turnstile's driver: the lock's queue, but its head is granted the moment its predecessor's
 * deletion arrives in order, without listing again (nothing can queue ahead of it, sequence
 * numbers only grow). The turnstile grants no lease, so it needs no token; and a second head (a
 * turnstile node deleted by hand) costs only order, never the limit, which `PermitPool.take`
 * keeps on its own.
 */
const TURNSTILE_DRIVER: QueueDriver<never> = {
  grantToken: () => 0n,
  standBy: () => ({ grant: () => ({ token: 0n }), stop() {} }),
};

/** The session our turnstile node was made on went away, and with it every node of ours: queue again. */
const REQUEUE = Symbol('requeue');

const noop = () => undefined;

/**
 * A counting semaphore on ZooKeeper (Curator's `InterProcessSemaphoreV2`, without its leaks and its
 * partial multi-permit deadlock). Two znodes per semaphore `dir`:
 *
 * - the **turnstile**: `dir` itself is a fair queue (the lock's), and only its head may take permits.
 *   Everyone else waits for their predecessor there, herd-free and in arrival order: no overtaking,
 *   and a request for many permits is never starved by requests for few.
 * - the **leases**: `dir/leases` holds one ephemeral node per holder, named with the permits it
 *   holds and the capacity it was granted under (`_c_<uuid>-<take>of<permits>`). The head creates
 *   its node there and lists: if the permits of all (its own included) fit the capacity, it holds,
 *   and leaves the turnstile. Otherwise it waits for a child of `leases` to go: it is the only one
 *   watching, and only heads create there, so a release wakes exactly one waiter.
 *
 * Why the limit holds: every lease node is created before the listing that grants it, so of any two
 * holders, the later-created one's listing counted the earlier one (both alive); the
 * last-created holder's count therefore covers every holder. A multi-permit request holds one node
 * for all its permits and takes all or none. Every node is ephemeral and carries the join's uuid: a
 * crash, an expiry, a lost create reply, a timeout or an abort leaves nothing behind for longer than
 * the session that made it lives.
 *
 * The capacity is recorded in every lease node and checked in every count: a user with another
 * permit count meets `SemaphorePermitsMismatchError` as long as anyone holds under the first.
 */
export class PermitPool {
  private readonly turnstile: FairQueue;
  private readonly removal: NodeRemoval;

  constructor(
    private readonly session: ZkSessionClient,
    logger?: QueueLogger,
  ) {
    this.turnstile = new FairQueue(session, ['lock'], logger);
    this.removal = new NodeRemoval(session, logger);
  }

  /**
   * Takes `request.take` permits of the semaphore `dir`; resolves with the lease node as a queue
   * entry (its token the `pzxid` of `leases` in the granting listing), or `undefined` when
   * `waitMs` is 0 and they are not free at once. Rejects with `LockTimeoutError`,
   * `LockAbortedError`, `SemaphorePermitsMismatchError` or `SessionClosedError`, having given up
   * both its nodes first.
   */
  async take(dir: string, request: PermitRequest, options: TakeOptions = {}): Promise<QueueEntry | undefined> {
    const { waitMs, signal, data } = options;
    const deadline = waitMs === undefined ? undefined : performance.now() + waitMs;
    const remaining = () => (deadline === undefined ? undefined : Math.max(0, deadline - performance.now()));
    try {
      for (;;) {
        const left = remaining();
        // A turnstile wait of 0 would mean "try once": a spent budget is a timeout here.
        if (waitMs !== undefined && waitMs > 0 && left === 0) throw new LockTimeoutError(dir, waitMs);
        const turn = await this.turnstile.join(dir, { data, signal, waitMs: waitMs === 0 ? 0 : left, driver: TURNSTILE_DRIVER });
        if (!turn) return undefined;
        let outcome: QueueEntry | undefined | typeof REQUEUE;
        // Out of the turnstile, whatever happens: the next in line may take permits now. As the
        // queue gives up a place, a caller that is not granted finds the turnstile clean (once
        // connected); a holder need not wait for the hand-over (a failure is reported).
        const leaveTurnstile = async (wait: boolean) => {
          const left = this.turnstile.leave(turn.path, turn.sessionId).catch((error: unknown) => this.removal.report(error));
          if (wait && isConnectedState(this.session.state)) await left;
        };
        try {
          outcome = await this.takeAtHead(dir, turn, request, data, waitMs === 0, signal, waitMs === 0 ? undefined : remaining());
        } catch (error) {
          await leaveTurnstile(true);
          throw error;
        }
        await leaveTurnstile(outcome === undefined);
        if (outcome !== REQUEUE) return outcome;
      }
    } catch (error) {
      // The budget is the whole acquisition's: say so with it, not with what was left of it.
      if (error instanceof LockTimeoutError && waitMs !== undefined && error.waitMs !== waitMs) throw new LockTimeoutError(dir, waitMs);
      throw error;
    }
  }

  /** At the head of the turnstile: create our lease node and wait until the permits of all fit. */
  private async takeAtHead(
    dir: string,
    turn: QueueEntry,
    request: PermitRequest,
    data: Buffer | undefined,
    tryOnce: boolean,
    signal: AbortSignal | undefined,
    waitMs: number | undefined,
  ): Promise<QueueEntry | undefined | typeof REQUEUE> {
    const leases = znodePaths.semaphoreLeases(dir);
    const name = `_c_${randomUUID()}-${request.take}of${request.permits}`;
    const path = `${leases}/${name}`;
    const sessionId = turn.sessionId;
    const control = WaitControl.create(dir, signal, waitMs);
    /** Our node exists (or may: `unknown`, a create whose reply was lost). */
    let created = false;
    let unknown = false;
    /** A create was sent on `sessionId`: giving up must delete the path (sent after it, the delete runs after it). */
    let sent = false;
    // A stop (timeout, abort) never waits for a request that is not answered.
    const answer = <T>(request: Promise<T>) => unlessStopped(request, control);
    let waited = turn.waited;
    // The first listing of each wait leaves no watch: a grant at once would leave it standing, to
    // fire at someone else's next change for nothing. Only a listing that says "wait" is repeated
    // with the watch.
    let watch: ChildWatch | undefined;
    let watchNext = false;
    try {
      for (;;) {
        control?.throwIfStopped();
        if (!isConnectedState(this.session.state)) await this.session.waitForConnection(control?.signal);
        if (this.session.sessionId !== sessionId) return REQUEUE;
        let listing: { children: string[]; stat: ZkStat };
        watch = watchNext ? new ChildWatch() : undefined;
        const watcher = watch?.watcher;
        try {
          if (unknown) {
            created = await answer(this.adopt(path, sessionId));
            unknown = false;
            continue;
          }
          if (created) {
            listing = await answer(this.session.getChildren(leases, watcher));
          } else {
            sent = true;
            const creating = this.session.create(path, data ?? null, 'ephemeral');
            // Right behind the create: ZooKeeper answers one session in order, so the listing has our node.
            const listed = this.session.getChildren(leases, watcher);
            listed.catch(noop);
            try {
              await answer(creating);
              created = true;
            } catch (error) {
              if (ZooKeeperError.is(error, 'NONODE')) {
                await answer(ensurePath(this.session, leases, 'container'));
                continue;
              }
              // The uuid is ours alone: a node by that name is a create of ours whose reply was lost.
              if (ZooKeeperError.is(error, 'NODEEXISTS') || (error instanceof ZooKeeperError && error.isConnectionError)) unknown = true;
              throw error;
            }
            listing = await answer(listed);
          }
        } catch (error) {
          if (control?.stopped) throw control.reason;
          if (unknown && ZooKeeperError.is(error, 'NODEEXISTS')) continue;
          if (!ZooKeeperError.isRetryable(error) && !ZooKeeperError.is(error, 'NONODE')) throw error;
          await pauseUnlessStopped(control);
          continue;
        }
        if (!listing.children.includes(name)) {
          created = false; // deleted under us (by hand): create it again
          continue;
        }
        const taken = countPermits(dir, listing.children, request);
        if (taken <= request.permits) return { dir, path, sessionId, token: lockToken(listing.stat), waited };
        if (tryOnce) {
          await this.removal.leave(path, sessionId);
          sent = false;
          return undefined;
        }
        if (!watch) {
          watchNext = true; // list again, watching
          continue;
        }
        waited = true;
        watchNext = false;
        await watch.wait(this.session, sessionId, control);
      }
    } catch (error) {
      if (sent) {
        // Made, maybe made (a lost reply, a reply not awaited), or not: the delete settles it.
        const left = this.removal.leave(path, sessionId).catch((failure: unknown) => this.removal.report(failure));
        if (isConnectedState(this.session.state)) await left;
      }
      throw error;
    } finally {
      control?.dispose();
    }
  }

  /** After a lost create reply: whether our node exists (it is ours if our session owns it; one made by hand is removed). */
  private async adopt(path: string, sessionId: string): Promise<boolean> {
    // As in `LostCreate.adopt`: the server we reconnected to may lag behind the one that took the create.
    await this.session.sync(path);
    const stat = await this.session.exists(path);
    if (!stat) return false;
    if (stat.ephemeralOwner === sessionId) {
      await this.session.secure(path);
      return true;
    }
    await this.session.delete(path, -1).catch((error: unknown) => this.removal.report(error));
    return false;
  }
}

/** The permits held in `children` (our node included); throws on a holder granted under another capacity. */
function countPermits(dir: string, children: readonly string[], request: PermitRequest): number {
  let taken = 0;
  for (const child of children) {
    const lease = parseLeaseNode(child);
    if (!lease) continue;
    if (lease.permits !== request.permits) throw new SemaphorePermitsMismatchError(dir, lease.permits, request.permits);
    taken += lease.take;
  }
  return taken;
}
