import { SessionWait } from './session-wait.js';
/**
 * A one-shot child watch, made before the listing that arms it (`watcher` goes with that
 * `getChildren`), then waited for. Any event ends the wait: a child came or went, or the node went.
 */
export class ChildWatch {
    constructor() {
        this.fired = false;
        this.watcher = () => {
            this.fired = true;
            this.wake?.();
        };
    }
    /**
     * Resolves once the watch fired (at once if it has), or when `sessionId` is no longer the session
     * (expired, closed or replaced: the watch went with it, and so did our nodes), or `waiter.wake`
     * is called; rejects when `control` stops. A disconnection alone keeps waiting: the client sends
     * the watch again on reconnection, and the server fires it then if the children changed meanwhile.
     */
    wait(session, sessionId, control, waiter) {
        if (this.fired)
            return Promise.resolve();
        const wait = new SessionWait(session, sessionId, undefined, { control, wakeable: waiter ? [this, waiter] : [this] });
        return wait.done;
    }
}
//# sourceMappingURL=child-watch.js.map