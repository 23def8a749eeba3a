import { LeadershipLostError } from '../../errors/leadership-lost.error.js';
import { SessionClosedError } from '../../errors/session-closed.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import { backoffDelay, pause } from '../backoff.js';
import { isReleaseRequested } from '../queue/release-request.js';
const CHECKING = { name: 'checking' };
// Why this file is long: it is one state machine, and the point of folding its flags into `Phase`
// was that every transition is in `enter` and every session state in `onState`: the check of our node
// and the take-over are steps of it that read and change the phase, so they stay beside it.
/**
 * One queue node's time at the head of the election queue, from the listing that showed it first
 * in line until the node is gone or given up (see `LeaderElection` for the words). It reports
 * leadership only while nothing casts doubt on it, with an explicit switch over the session states
 * (`onState`) and one transition function (`enter`):
 *
 * - Before the first report, and after every reconnection or stall, one `getData` on our node
 *   checks that it exists and that its `ephemeralOwner` is our session, and leaves a watch that
 *   ends the term if the node is deleted. Straight after the grant, the grant itself proved that,
 *   and the watch the succession kept on our node meanwhile (`Succession.ownNodeWatch`) takes the
 *   getData's place: an election's grant costs no request.
 * - Before the first report, the ready state is taken over (recovery); while that fails it is
 *   retried with back-off (100 ms doubling to 5 s), never reporting leadership meanwhile.
 * - `suspended` ends reporting at once (policy `immediate`) or not before `lost` (`deadline`);
 *   `expired`, a replaced or closed session, or our node's deletion end the term.
 * - A change of our node's data is a step-down request (nothing else writes a queue node): the
 *   watch on it reports a mark made while it stands, the version in every read of the node one
 *   made before; either goes to `hooks.stepDownRequested`.
 */
export class LeadershipTerm {
    constructor(session, entry, 
    /** The watch on our node that the queue's succession left standing at the grant, if any. */
    ownNodeWatch, policy, hooks) {
        this.session = session;
        this.entry = entry;
        this.policy = policy;
        this.hooks = hooks;
        this.phase = CHECKING;
        this.takeOver = { state: 'pending' };
        /**
         * A watch on our node stands. The C client keeps it through reconnections of the session, so a
         * check after `reconnected` sets no other (one more callback per reconnection otherwise).
         */
        this.nodeWatched = false;
        this.inheritedWatch = ownNodeWatch;
        this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    }
    /**
     * Reporting leadership, and the session is not in doubt. The second half matters right after
     * this process was paused (SIGSTOP, a long GC): its timers then fire in due order, so
     * application code can run before the session's `lost` event does.
     */
    get isLeading() {
        return this.phase.name === 'leading' && !this.session.mayHaveExpired;
    }
    start() {
        // state$ replays the current state first, synchronously: that first state follows straight on
        // the grant, which proved our node ours (see `check`).
        let granted = true;
        this.subscription = this.session.state$.subscribe((change) => {
            this.onState(change, granted);
            granted = false;
        });
        granted = false;
        if (this.isOver)
            this.subscription.unsubscribe(); // ended by the replayed state
    }
    /**
     * Ends the term voluntarily: reports false at once, but lets running leader sections finish
     * (their signal stays quiet): our node still exists, so nobody else can lead until the caller
     * deletes it. `abandon()` then, or any doubt about the session, aborts what still runs.
     */
    resign(reason = 'resigned') {
        const phase = this.phase;
        if (this.isOver)
            return;
        this.enter({ name: 'resigned', finishing: phase.name === 'leading' ? phase.tenure : undefined }, reason);
    }
    /** After a resignation: tells the sections still running that leadership is over. */
    abandon(reason) {
        this.subscription?.unsubscribe();
        const phase = this.phase;
        if (phase.name === 'resigned') {
            phase.finishing?.abort(new LeadershipLostError(this.entry.dir, reason));
            phase.finishing = undefined;
        }
        this.stopTakeOver(reason);
    }
    /** Ends the term from outside; the node may still be ours. */
    end(reason, nodeMayExist) {
        if (this.isOver)
            return;
        this.enter({ name: 'ended', reason }, reason, nodeMayExist);
    }
    /** Resigned or ended: nothing brings the term back. */
    get isOver() {
        return this.phase.name === 'resigned' || this.phase.name === 'ended';
    }
    /**
     * The one transition function: leaves the current phase and enters `next`, with what that takes.
     * `reason`: why reporting stops (leaving `leading`), or why the term ends. `nodeMayExist`: for
     * `ended`, whether the caller must delete our node before joining again.
     */
    enter(next, reason, nodeMayExist = false) {
        const previous = this.phase;
        this.phase = next;
        if (next.name !== 'checking' && next.name !== 'leading')
            this.attempt?.supersede();
        switch (next.name) {
            case 'checking':
                return;
            case 'leading':
                // A check that passed while leading (policy `deadline`, after a reconnection) changes nothing.
                if (previous.name === 'leading')
                    this.phase = previous;
                else
                    this.hooks.report({ token: this.entry.token, signal: next.tenure.signal });
                return;
            case 'doubt':
                if (previous.name === 'leading')
                    this.hooks.logger.warn(`Not reporting leadership of ${this.entry.dir}: ${reason}`);
                this.stopReporting(previous, reason);
                this.stopTakeOver(reason);
                return;
            case 'resigned':
                // Reported false, but the tenure is not aborted: its sections may finish (see `resign`).
                if (previous.name === 'leading')
                    this.hooks.report(undefined, reason);
                if (!next.finishing)
                    this.subscription?.unsubscribe();
                this.resolveEnded({ reason, nodeMayExist: true });
                return;
            case 'ended':
                this.subscription?.unsubscribe();
                this.stopReporting(previous, reason);
                this.stopTakeOver(reason);
                this.resolveEnded({ reason, nodeMayExist });
                return;
        }
    }
    onState(change, granted) {
        if (this.phase.name === 'resigned') {
            // Resigned, sections finishing: any doubt about the session ends them as it would a leader.
            const doubtful = change.state === 'suspended' ? this.policy === 'immediate' : !isConnectedState(change.state) || change.sessionId !== this.entry.sessionId;
            if (doubtful && change.state !== 'connecting')
                this.abandon(`leadership ended while resigning: session ${change.state}`);
            return;
        }
        if (this.phase.name === 'ended')
            return;
        switch (change.state) {
            case 'connected':
            case 'reconnected':
                if (change.sessionId !== this.entry.sessionId)
                    return this.end('the session was replaced', false);
                return void this.check(granted);
            case 'suspended':
                // Disconnected, session maybe alive: nobody else can lead before it expires, but we may not
                // hear of that in time. `deadline` keeps leading until the loss clock says `lost`.
                if (this.policy === 'immediate')
                    this.doubt('disconnected from ZooKeeper');
                return;
            case 'lost':
                return this.doubt('the session may have expired');
            case 'expired':
                return this.end('the session expired', false);
            case 'closed':
                return this.end('the session was closed', false);
            case 'connecting':
                return;
        }
    }
    doubt(reason) {
        if (this.isOver)
            return;
        this.enter({ name: 'doubt', reason }, reason);
    }
    /** Leaving `leading` for anything but a resignation: the tenure ends, and observers hear false. */
    stopReporting(previous, reason) {
        if (previous.name !== 'leading')
            return;
        previous.tenure.abort(new LeadershipLostError(this.entry.dir, 'this process no longer reports leadership'));
        this.hooks.report(undefined, reason);
    }
    /** Tells leader work that a running recovery called that the take-over is over or in doubt. */
    stopTakeOver(reason) {
        if (this.takeOver.state !== 'running')
            return;
        this.takeOver.control.abort(new LeadershipLostError(this.entry.dir, `the take-over was interrupted: ${reason}`));
    }
    /** The take-over: the one running, or a new one (marked done once it succeeds; pending again if it fails). */
    takeOverOnce(ownership) {
        if (this.takeOver.state === 'running')
            return this.takeOver.done;
        const control = new AbortController();
        const done = this.hooks.takeOver(this.entry.token, ownership, control.signal).then(() => void (this.takeOver = { state: 'done' }), (error) => {
            this.takeOver = { state: 'pending' };
            throw error;
        });
        this.takeOver = { state: 'running', done, control };
        return done;
    }
    /** Verifies our node (and takes over the ready state once), then reports leadership; given up once superseded. */
    async check(granted) {
        if (this.isOver)
            return;
        this.attempt?.supersede();
        const attempt = (this.attempt = new CheckAttempt());
        if (this.phase.name !== 'leading')
            this.enter(CHECKING, 'checking');
        // Straight after the grant, the grant proved our node ours (the granting listing, answered on
        // this session, or a standby's own-node watch that did not fire before the leader's
        // departure): only a deletion watch is needed then, and the succession's own-node watch is
        // one (failing that, a getData that is not waited for).
        let proven = granted;
        for (let failures = 0;; proven = false) {
            try {
                const owned = proven && this.takeInheritedWatch() ? undefined : this.checkOwnNode(attempt, proven);
                if (attempt.superseded)
                    return; // a step-down request seen with the inherited watch
                if (this.takeOver.state !== 'done') {
                    // The take-over's read of the ready znode came with the grant (sent with the granting
                    // listing, or kept fresh by the standby), or goes out right behind the ownership check:
                    // one round trip for both on the way to leadership.
                    await this.takeOverOnce(proven ? undefined : owned);
                    if (attempt.superseded)
                        return;
                }
                if (!proven)
                    await owned;
                if (attempt.superseded)
                    return;
                // A state change that landed meanwhile has superseded `attempt`; this is the last check.
                if (!isConnectedState(this.session.state) || this.session.sessionId !== this.entry.sessionId)
                    return;
                return this.enter(this.phase.name === 'leading' ? this.phase : { name: 'leading', tenure: new AbortController() }, 'confirmed');
            }
            catch (error) {
                if (attempt.superseded)
                    return; // superseded, or the term ended
                if (error instanceof ForeignNodeError)
                    return this.end('our queue node belongs to another session', false);
                if (ZooKeeperError.is(error, 'NONODE'))
                    return this.end('our queue node is gone', false);
                if (error instanceof SessionClosedError)
                    return this.end('the session was closed', false);
                if (error instanceof LeadershipLostError)
                    return this.end(error.message, true);
                if (ZooKeeperError.isRetryable(error)) {
                    // Disconnected or gone: the next state event calls us again. Still connected: look again shortly.
                    if (!isConnectedState(this.session.state) || !(await pause(100, attempt.signal)))
                        return;
                    continue;
                }
                // Recovery failed (or the ready state is unreadable): retry in place, leadership unreported.
                failures++;
                const delay = backoffDelay(failures);
                this.hooks.logger.error(`Taking over leadership of ${this.entry.dir} failed (attempt ${failures}), retrying in ${delay} ms: ${describe(error)}`);
                if (!(await pause(delay, attempt.signal)))
                    return;
            }
        }
    }
    /** The grant's standing watch on our node, taken (once) to end the term on its deletion. */
    takeInheritedWatch() {
        const watch = this.inheritedWatch;
        if (!watch)
            return false;
        this.inheritedWatch = undefined;
        this.nodeWatched = true;
        watch.take((event) => this.onNodeEvent(event));
        if (watch.stepDownRequested)
            this.hooks.stepDownRequested();
        return true;
    }
    /**
     * Checks that our node exists and is ours, leaving a watch that ends the term on its deletion.
     * `getData`, not `exists`: the stat carries ephemeralOwner, and on a deleted node no watch is left.
     * `proven`: not waited for; a node lost meanwhile ends the term here.
     */
    checkOwnNode(attempt, proven) {
        // Not right after the grant (a reconnection, say), the member that answers may lag behind the
        // leader: its copy can still show our node after someone deleted it, while the next participant,
        // on an up-to-date member, is granted leadership. A sync first, pipelined (the member answers
        // the read after it), makes the read show everything committed before it.
        const synced = proven ? undefined : this.session.sync(this.entry.path);
        const owned = Promise.all([synced, this.readOwnNode()]).then(([, { stat }]) => {
            if (stat.ephemeralOwner !== this.entry.sessionId)
                throw new ForeignNodeError();
            // Marked before our watch stood (or while disconnected): the watch will not tell.
            if (isReleaseRequested(stat) && !this.isOver)
                this.hooks.stepDownRequested();
        });
        owned.catch((error) => {
            if (!proven || attempt.superseded)
                return; // awaited (or superseded)
            if (error instanceof ForeignNodeError)
                this.end('our queue node belongs to another session', false);
            else if (ZooKeeperError.is(error, 'NONODE'))
                this.end('our queue node is gone', false);
        });
        return owned;
    }
    /** `getData` of our node, leaving a watch on it unless one stands already. */
    readOwnNode() {
        if (this.nodeWatched)
            return this.session.getData(this.entry.path);
        this.nodeWatched = true;
        return this.session.getData(this.entry.path, (event) => this.onNodeEvent(event)).catch((error) => {
            this.nodeWatched = false; // no reply, or NONODE: the C client kept no watch
            throw error;
        });
    }
    onNodeEvent(event) {
        this.nodeWatched = false; // one-shot: spent
        if (this.isOver)
            return;
        if (event.type === 'deleted')
            return this.end('our queue node was deleted', false);
        if (event.type === 'changed') {
            // Nothing writes a queue node but a step-down request (see `release-request.ts`).
            this.hooks.stepDownRequested();
            if (this.isOver)
                return;
            // Still leading (the election did not resign): the one-shot watch is spent, set it again.
            this.readOwnNode().catch((error) => {
                if (ZooKeeperError.is(error, 'NONODE'))
                    this.end('our queue node is gone', false);
            });
        }
    }
}
/** The reason a superseded check's pause is aborted with (nobody reads it). */
const SUPERSEDED = new Error('superseded');
/**
 * One check's cancellation: a flag that the check's steps test, and an AbortSignal, made only when
 * a pause asks for one, that ends the pause when the check is superseded.
 */
class CheckAttempt {
    constructor() {
        this.superseded = false;
    }
    supersede() {
        this.superseded = true;
        this.controller?.abort(SUPERSEDED);
    }
    get signal() {
        this.controller ??= new AbortController();
        if (this.superseded)
            this.controller.abort(SUPERSEDED);
        return this.controller.signal;
    }
}
/** Our queue node's `ephemeralOwner` is not our session. */
class ForeignNodeError extends Error {
}
function describe(error) {
    return error instanceof Error ? error.message : String(error);
}
//# sourceMappingURL=leadership-term.js.map