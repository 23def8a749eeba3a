import type { Subscription } from 'rxjs';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { Watcher } from '../../zookeeper/types.js';
import type { Waiter } from './predecessor-wait.js';
import type { WaitControl } from './wait-control.js';

/**
 * A one-shot child watch, made before the listing that arms it (`watcher` goes with that
 * `getChildren`), then waited for. Any event ends the wait: a child came or went, or the node went.
 */
export class ChildWatch {
  private fired = false;
  private wake: (() => void) | undefined;

  readonly watcher: Watcher = () => {
    this.fired = true;
    this.wake?.();
  };

  /**
   * Resolves once the watch fired (at once if it has), or when `sessionId` is no longer the session
   * (expired, closed or replaced: the watch went with it, and so did our nodes), or `waiter.wake`
   * is called; rejects when `control` stops. A disconnection alone keeps waiting: the client sends
   * the watch again on reconnection, and the server fires it then if the children changed meanwhile.
   */
  wait(session: ZkSessionClient, sessionId: string, control: WaitControl | undefined, waiter?: Pick<Waiter, 'wake'>): Promise<void> {
    if (this.fired) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let subscription: Subscription | undefined;
      let stopListening: (() => void) | undefined;
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        this.wake = undefined;
        if (waiter) waiter.wake = undefined;
        subscription?.unsubscribe();
        stopListening?.();
        if (error === undefined) resolve();
        else reject(error);
      };
      this.wake = () => finish();
      if (waiter) waiter.wake = () => finish();
      // state$ replays the current state synchronously, so `finish` may run inside subscribe().
      subscription = session.state$.subscribe((change) => {
        if (change.state === 'expired' || change.state === 'closed' || (change.state === 'connected' && change.sessionId !== sessionId)) finish();
      });
      if (settled) subscription.unsubscribe();
      if (control && !settled) {
        stopListening = control.onStop(() => finish(control.reason));
        if (control.stopped) finish(control.reason);
      }
    });
  }
}
