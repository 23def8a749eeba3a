import { LockLostError } from '../../errors/lock-lost.error.js';
import { RepeatedConnectionLossError } from '../../errors/repeated-connection-loss.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
/**
 * Consecutive connection losses after which a request is given up: a dropped connection now and
 * then is weather, but a request that loses the connection on every try after a good reconnect is
 * one the server refuses to take (over `jute.maxbuffer`, say) and re-sending it only flaps the session.
 */
export const MAX_CONNECTION_LOSSES = 3;
/**
 * The retries of one step of a ready-state write through connection loss, on the session the
 * holder's lease (or leadership) lives on. Three bounds end them, so that no caller waits on a
 * reconnection that may never come: the holder's `signal` (its lease or tenure ended), a replaced
 * session (the lock died with the old one) and `MAX_CONNECTION_LOSSES` in a row.
 */
export class WriteRetry {
    constructor(session, path, signal) {
        this.session = session;
        this.path = path;
        this.signal = signal;
        this.losses = 0;
        this.sessionId = session?.sessionId;
    }
    /** Throws the reason the holder's signal aborted with, if it did: its writes must stop. */
    checkHeld() {
        if (this.signal?.aborted)
            throw holderGone(this.signal, this.path);
    }
    /**
     * `request` (one attempt of the step), unless the holder's signal aborts first: then it rejects
     * at once with the reason the lease (or tenure) ended, and the request goes on unheeded. A holder
     * told that its lease may be lost must not wait on a server that may never answer (DESIGN §8.10:
     * a server cut off from the leader keeps the connection up and leaves a write unanswered). What
     * the request does if it lands late is what a crash of the holder right then would leave, which
     * the ready state is there to detect; its own outcome then has nobody left to tell.
     */
    attempt(request) {
        const signal = this.signal;
        if (!signal)
            return request;
        return new Promise((resolve, reject) => {
            const onAbort = () => {
                request.catch(() => undefined); // nobody waits for it any more (see above)
                reject(holderGone(signal, this.path));
            };
            if (signal.aborted)
                return onAbort();
            signal.addEventListener('abort', onAbort, { once: true });
            request.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
        });
    }
    /** An attempt ended some other way than by connection loss (a version conflict, say): the losses were not in a row. */
    settled() {
        this.losses = 0;
    }
    /**
     * After a failed attempt: resolves true once the same session is connected again and the step
     * may be tried again. False when the error is not a connection loss (or there is no supervised
     * session): the caller's to handle. Rejects with `LockLostError` on a replaced session, with the
     * signal's reason when the holder's lease ends while waiting, and with
     * `RepeatedConnectionLossError` once the connection was lost `MAX_CONNECTION_LOSSES` times in a row.
     */
    async again(error) {
        const session = this.session;
        if (!session || !(error instanceof ZooKeeperError && error.isConnectionError))
            return false;
        this.checkHeld(); // the lease's end is the better reason to stop
        if (++this.losses >= MAX_CONNECTION_LOSSES)
            throw new RepeatedConnectionLossError(this.path, this.losses, error);
        try {
            await session.waitForConnection(this.signal);
        }
        catch (waitError) {
            if (this.signal?.aborted)
                throw holderGone(this.signal, this.path);
            throw waitError;
        }
        if (session.sessionId !== this.sessionId)
            throw new LockLostError(this.path, 'the session holding the lock expired while its ready state was being written');
        this.checkHeld();
        return true;
    }
}
/** What a write of a holder whose lease (or tenure) ended rejects with: the reason it ended. */
export function holderGone(signal, path) {
    return signal.reason instanceof Error ? signal.reason : new LockLostError(path, 'the holder\'s lease ended while its ready state was being written');
}
//# sourceMappingURL=write-retry.js.map