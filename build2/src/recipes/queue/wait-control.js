import { validateDuration } from '../../errors/duration-option.js';
import { LockAbortedError } from '../../errors/lock-aborted.error.js';
import { LockTimeoutError } from '../../errors/lock-timeout.error.js';
import { ZooKeeperUnreachableError } from '../../errors/zookeeper-unreachable.error.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import { pause } from '../backoff.js';
/**
 * One AbortSignal for "stop waiting": the caller's signal, the wait timeout, or (for a try-once,
 * `waitMs` 0) the session leaving the connected states, whichever comes first. Its reason is the
 * typed error to throw (`LockAbortedError` / `LockTimeoutError` / `ZooKeeperUnreachableError`).
 * There is none when there is none of them (`create` returns undefined).
 */
export class WaitControl {
    constructor(path, callerSignal, waitMs, session) {
        this.callerSignal = callerSignal;
        this.controller = new AbortController();
        this.stopListeners = new Set();
        if (session && waitMs === 0) {
            // A try-once answers now or not at all: waiting for a reconnection would make it wait for
            // the ensemble, without bound. A look still unanswered stops when the client notices the drop
            // (at once for a closed socket; a silent one after the client's read timeout, a fraction of
            // the session timeout); whatever that look made is cleaned up by the join (see `FairQueue`).
            // state$ replays the current state synchronously: a try on a disconnected session stops here.
            this.disconnection = session.state$.subscribe((change) => {
                if (!isConnectedState(change.state))
                    this.stop(new ZooKeeperUnreachableError(path, `the session is ${change.state}`));
            });
        }
        if (callerSignal) {
            this.onCallerAbort = () => this.stop(new LockAbortedError(path, callerSignal.reason));
            if (callerSignal.aborted)
                this.onCallerAbort();
            else
                callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
        }
        if (waitMs !== undefined && waitMs > 0 && Number.isFinite(waitMs) && !this.controller.signal.aborted) {
            this.timer = setTimeout(() => this.stop(new LockTimeoutError(path, waitMs)), waitMs);
        }
    }
    /**
     * `session`: the one a try-once (`waitMs` 0) stops on when it disconnects. Throws
     * `InvalidOptionsError` for a `waitMs` no timer can hold (it would fire after 1 ms).
     */
    static create(path, signal, waitMs, session) {
        if (waitMs !== undefined)
            validateDuration('waitMs', waitMs, { unbounded: true });
        const timed = waitMs !== undefined && waitMs > 0 && Number.isFinite(waitMs);
        const tryOnce = session !== undefined && waitMs === 0;
        return signal || timed || tryOnce ? new WaitControl(path, signal, waitMs, session) : undefined;
    }
    get signal() {
        return this.controller.signal;
    }
    /**
     * Calls `listener` once, when waiting must stop (not if it has stopped already); returns what
     * removes it. The listeners are a plain set that the stop calls in order, synchronously; `signal`
     * is for code that takes an AbortSignal.
     */
    onStop(listener) {
        this.stopListeners.add(listener);
        return () => void this.stopListeners.delete(listener);
    }
    get stopped() {
        return this.controller.signal.aborted;
    }
    /** Why waiting stopped: `LockAbortedError`, `LockTimeoutError` or `ZooKeeperUnreachableError`. */
    get reason() {
        return this.controller.signal.reason;
    }
    throwIfStopped() {
        if (this.controller.signal.aborted)
            throw this.controller.signal.reason;
    }
    stop(reason) {
        if (this.controller.signal.aborted)
            return;
        this.controller.abort(reason);
        const listeners = [...this.stopListeners];
        this.stopListeners.clear();
        for (const listener of listeners)
            listener();
    }
    dispose() {
        clearTimeout(this.timer);
        this.disconnection?.unsubscribe();
        if (this.onCallerAbort)
            this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
    }
}
/**
 * `work`, unless `control` stops first: then it rejects with the stop's reason at once, and `work`
 * goes on unheeded (a stop never waits for a request that is not answered).
 */
export function unlessStopped(work, control) {
    if (!control)
        return work;
    return new Promise((resolve, reject) => {
        const stopListening = control.onStop(() => reject(control.reason));
        if (control.stopped)
            reject(control.reason);
        work.then(resolve, reject).finally(stopListening);
    });
}
/** A short pause after a retryable failure, so that a state change can land; interrupted by `control` (rejects with its reason). */
export async function pauseUnlessStopped(control) {
    if (!(await pause(20, control?.signal)))
        throw control.reason;
}
/** Resolves when `work` does, or after `ms`, whichever comes first (`work` goes on). */
export function withGrace(work, ms) {
    let timer;
    const grace = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
    return Promise.race([work, grace]).finally(() => clearTimeout(timer));
}
//# sourceMappingURL=wait-control.js.map