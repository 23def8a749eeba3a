import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { Watcher } from '../../zookeeper/types.js';
import { SessionWait, type Wakeable } from './session-wait.js';
import type { WaitControl } from './wait-control.js';

/**
 * A one-shot child watch, made before the listing that arms it (`watcher` goes with that
 * `getChildren`), then waited for. Any event ends the wait: a child came or went, or the node went.
 */
export class ChildWatch implements Wakeable {
  private fired = false;
  /** Set while waiting: the watch's event ends the wait. */
  wake: (() => void) | undefined;

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
  wait(session: ZkSessionClient, sessionId: string, control: WaitControl | undefined, waiter?: Wakeable): Promise<void> {
    if (this.fired) return Promise.resolve();
    const wait = new SessionWait<void>(session, sessionId, undefined, { control, wakeable: waiter ? [this, waiter] : [this] });
    return wait.done;
  }
}
