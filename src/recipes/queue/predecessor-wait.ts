import type { Subscription } from 'rxjs';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { isSessionOwned } from './queue-node.js';
import type { WaitControl } from './wait-control.js';

/** The join that waits (see `waitForDeletion`). */
export interface Waiter {
  /** Set while waiting: ends the wait early (our own node changed). */
  wake: (() => void) | undefined;
  /** The predecessor turned out to be a persistent look-alike (made by hand): leave it out from now on. */
  foreign(path: string): void;
}

// DESIGN §3 step 3: watch the immediate predecessor only, and wait for its deletion.

/**
 * Waits until `path` is deleted or changed (one-shot data watch), our session changes, our own
 * node's watch fires, or `control` stops; with `orMarked`, at once if it is marked already (data
 * version above 0, see `QueuePlace.untilGranted`): the watch fires for no change made before it.
 * Resolves true only when the watch reported the deletion in order: with no disconnection meanwhile. (On reconnection the server fires the watches whose
 * nodes changed while we were away all at once, in no particular order: the deletion of our own
 * node, or a change of what a standby watches, may then come after the predecessor's.)
 * `getData` rather than `exists`: on a node that is already gone it leaves no watch behind (an
 * `exists` watch would wait forever for a creation that never comes).
 */
export function waitForDeletion(session: ZkSessionClient, path: string, sessionId: string, waiter: Waiter, control: WaitControl | undefined, orMarked = false): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    let inOrder = true;
    let subscription: Subscription | undefined;
    let stopListening: (() => void) | undefined;
    const finish = (error?: unknown, departed = false) => {
      if (settled) return; // stale watch callbacks and late replies land here
      settled = true;
      waiter.wake = undefined;
      subscription?.unsubscribe();
      stopListening?.();
      if (error === undefined) resolve(departed && inOrder);
      else reject(error);
    };
    // state$ replays the current state synchronously, so `finish` may run inside subscribe().
    subscription = session.state$.subscribe((change) => {
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
    waiter.wake = () => finish();
    if (control) {
      stopListening = control.onStop(() => finish(control.reason));
      if (control.stopped) finish(control.reason);
    }
    session.getData(path, (event) => finish(undefined, event.type === 'deleted')).then(({ stat }) => {
      // A persistent node named like a queue node (made by hand) would never go away: waiting
      // for it would block forever. It holds nothing; skip it from now on and look again.
      if (!isSessionOwned(stat.ephemeralOwner)) {
        waiter.foreign(path);
        finish();
      } else if (orMarked && stat.version > 0) {
        finish(); // marked before our watch was set: it will not fire for that
      }
    }, (error: unknown) => {
      if (ZooKeeperError.is(error, 'NONODE') || ZooKeeperError.isRetryable(error)) finish();
      else finish(error);
    });
  });
}
