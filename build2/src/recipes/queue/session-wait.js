import { isSessionGone } from '../../zookeeper/session-state.js';
/**
 * The plumbing of a wait for a watch of session `sessionId` (a predecessor's deletion, a queue's
 * change), settled once: by the waiting code (`end`, `fail`), with `ifGone` when the session is
 * gone (`isSessionGone`: the watch went with it, and so did our nodes), with `ifGone` when a
 * `Wakeable` is woken, or with the stop's reason when `control` stops. Whatever calls it after it
 * settled (a stale watch callback, a late reply) is ignored. A disconnection alone does not end it:
 * the client sends the watch again on reconnection; `onState` sees every state change for those
 * who care.
 */
export class SessionWait {
    constructor(session, sessionId, ifGone, options = {}) {
        this.ifGone = ifGone;
        this.settled = false;
        this.done = new Promise((resolve, reject) => {
            this.resolve = resolve;
            this.reject = reject;
        });
        this.wakeable = options.wakeable ?? [];
        for (const waiter of this.wakeable)
            waiter.wake = () => this.end(ifGone);
        // state$ replays the current state synchronously: the wait may end inside subscribe().
        this.subscription = session.state$.subscribe((change) => {
            options.onState?.(change);
            if (isSessionGone(change, sessionId))
                this.end(ifGone);
        });
        const { control } = options;
        if (control && !this.settled) {
            this.stopListening = control.onStop(() => this.fail(control.reason));
            if (control.stopped)
                this.fail(control.reason);
        }
        if (this.settled)
            this.cleanUp();
    }
    get isSettled() {
        return this.settled;
    }
    end(value = this.ifGone) {
        if (this.settle())
            this.resolve(value);
    }
    fail(error) {
        if (this.settle())
            this.reject(error);
    }
    settle() {
        if (this.settled)
            return false;
        this.settled = true;
        this.cleanUp();
        return true;
    }
    cleanUp() {
        for (const waiter of this.wakeable)
            waiter.wake = undefined;
        // Unset during construction when the wait ended inside subscribe(): the constructor calls again.
        this.subscription?.unsubscribe();
        this.stopListening?.();
    }
}
//# sourceMappingURL=session-wait.js.map