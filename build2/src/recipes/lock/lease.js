import { LockLostError } from '../../errors/lock-lost.error.js';
import { ReleaseRequestedError } from '../../errors/release-requested.error.js';
const DETACHED = { sessionInDoubt: () => false, lost() { }, releaseFailed() { }, watchReleaseRequest() { } };
/**
 * Proof of holding a lock, from the grant until `release()`.
 *
 * - `fencingToken` strictly increases over the grants of one lock: pass it to the storage you
 *   write to and have it refuse tokens older than the newest it has seen.
 * - `signal` aborts (with `LockLostError`) as soon as the lease is no longer held: on every
 *   `release()`, before the node is deleted; when the session expired, or was disconnected (or
 *   this process paused) long enough that the server may have expired it, or was closed; and
 *   when the lease is revoked (the client closes at shutdown). A loss aborts it before the server
 *   can grant the lock to anyone else. Stop the work; the node is deleted for you.
 * - `releaseRequested` aborts (with `ReleaseRequestedError`) when another process asked the holder
 *   to let go (`LockService.requestRelease`). Cooperative: the lease stays held until released.
 */
export class Lease {
    constructor(name, entry, 
    /** Deletes our node, which hands the lock over. */
    remove, host = DETACHED) {
        this.name = name;
        this.remove = remove;
        this.host = host;
        /** Lost with the session: the node goes with the session, the release must not wait for it. */
        this.lostWithSession = false;
        this.dir = entry.dir;
        this.fencingToken = entry.token;
        this.path = entry.path;
        this.sessionId = entry.sessionId;
    }
    /**
     * Aborted once the lease is no longer held. Each read first asks the session, so that a holder
     * resuming from a pause past the loss deadline finds it aborted at once, before the timer that
     * would abort it has run: read `lease.signal.aborted` (or call `assertHeld()`) right before a
     * side effect, rather than a copy of the signal taken earlier.
     */
    get signal() {
        this.noticeSessionDoubt();
        if (!this.controller) {
            this.controller = new AbortController();
            if (this.end)
                this.controller.abort(this.endError());
        }
        return this.controller.signal;
    }
    /**
     * Aborts (with `ReleaseRequestedError`) once another process asked this holder to let go
     * (`LockService.requestRelease`, `nestjs-zk-lock release`): stop at a safe point and release.
     * Nothing is released on the holder's behalf, and nothing else aborts it (a loss aborts
     * `signal`). A request made before the first read is seen with that read's reply. Free until
     * read: the first read sets one watch on our node (one request, see `watchReleaseRequest`); a
     * lease whose holder never reads it costs nothing.
     */
    get releaseRequested() {
        if (this.releaseRequest)
            return this.releaseRequest.signal;
        const request = (this.releaseRequest = new AbortController());
        // A lease no longer held is asked nothing: its node is gone or going.
        if (this.released === undefined && this.end === undefined) {
            this.host.watchReleaseRequest(this, () => {
                if (request.signal.aborted || this.released !== undefined)
                    return false;
                request.abort(new ReleaseRequestedError(this.dir, this.path));
                return true;
            });
        }
        return request.signal;
    }
    /**
     * Granted, not released, and not (possibly) lost. Also false at once when the session is in
     * doubt before `signal` could abort: right after this process resumed from a pause.
     */
    get isHeld() {
        this.noticeSessionDoubt();
        return this.released === undefined && this.end === undefined;
    }
    /** Throws `LockLostError` when the lease is no longer held. For checks between steps of long work. */
    assertHeld() {
        this.noticeSessionDoubt();
        if (this.end)
            throw this.endError();
        if (this.released)
            throw new LockLostError(this.path, 'already released');
    }
    /**
     * Gives the lock to the next in line. Idempotent. `signal` aborts first (DESIGN §8.8: whatever
     * still runs as this holder is told before the delete hands the lock over). Resolves once our
     * node is deleted, at once when the lease was lost with its session, or as soon as the session
     * counts as lost while the delete waits for an unreachable ensemble (`FairQueue.leave`): never
     * later than the session could live. The deletion then completes in the background when the
     * session is reachable again, or the server removes the node with the expired session; a
     * failure is reported to the host.
     */
    release() {
        if (this.released)
            return this.released;
        const inBackground = this.lostWithSession || this.host.sessionInDoubt();
        let settle;
        // Set before the abort: an abort listener that calls release() gets this same promise.
        this.released = new Promise((resolve) => (settle = resolve));
        this.endWith('the lease was released');
        const removal = this.removeNode();
        if (inBackground) {
            removal.catch((error) => this.host.releaseFailed(this, error));
            settle(undefined);
        }
        else {
            settle(removal);
        }
        return this.released;
    }
    /**
     * Takes the lease away from a holder that did not release it (the client closes at shutdown):
     * `signal` aborts with `LockLostError(reason)` and the loss is reported, then the node is
     * deleted as by `release()`, whose promise this returns.
     */
    revoke(reason) {
        this.abortAsLost(reason);
        return this.release();
    }
    /**
     * The session is in doubt before its loss was announced (the timer that announces it has not run
     * yet): end the lease now, so that `signal`, `isHeld` and `assertHeld` agree at every instant.
     */
    noticeSessionDoubt() {
        if (this.released === undefined && this.end === undefined && this.host.sessionInDoubt()) {
            this.markLost('the session may have expired (the leader has not confirmed it in time: disconnected, cut off, or this process was paused)');
        }
    }
    /** Called by the registry when the session may be gone. */
    markLost(reason) {
        if (this.released || this.end)
            return;
        this.lostWithSession = true; // before the abort: its listeners may call release()
        this.abortAsLost(reason);
    }
    abortAsLost(reason) {
        if (this.released || this.end)
            return;
        const error = new LockLostError(this.path, reason);
        this.endWith(reason, error);
        this.host.lost(this, error);
    }
    /**
     * Ends the lease, once: `signal` aborts now if it was read, else it is born aborted on its first
     * read. A plain release whose holder never read `signal` builds no error (an Error's stack
     * trace is the costliest part of a release after the delete itself).
     */
    endWith(reason, error) {
        if (this.end)
            return;
        this.end = { reason, error };
        this.controller?.abort(this.endError());
    }
    /** The `LockLostError` that `signal` aborts with and `assertHeld` throws: one per lease. */
    endError() {
        const end = this.end;
        return (end.error ??= new LockLostError(this.path, end.reason));
    }
    removeNode() {
        try {
            return this.remove(this);
        }
        catch (error) {
            return Promise.reject(error);
        }
    }
}
//# sourceMappingURL=lease.js.map