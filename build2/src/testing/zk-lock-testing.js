import { ElectionClosedError } from '../errors/election-closed.error.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { describeValue } from '../errors/describe-value.js';
import { validateDuration } from '../errors/duration-option.js';
import { RecoveryFailedError } from '../errors/recovery-failed.error.js';
import { validateLockName } from '../recipes/lock-name.js';
import { znodePaths } from '../recipes/znode-paths.js';
import { isConnectedState } from '../zookeeper/session-state.js';
import { TestingElection } from './testing-election.js';
/**
 * Drives the ZooKeeper of `ZkLockTestingModule` from a test, at the level of ZooKeeper: who leads
 * (stand-in participants of a second session, queued ahead of this process), which earlier holder
 * or leader died mid-section (its dirty ready record), which held lock is lost, the server's
 * clock, and the process's connection. Inject it like any provider: `moduleRef.get(ZkLockTesting)`.
 */
export class ZkLockTesting {
    constructor(zk, standIns, session, leader, locks, events, options) {
        this.zk = zk;
        this.standIns = standIns;
        this.session = session;
        this.leader = leader;
        this.locks = locks;
        this.events = events;
        this.options = options;
    }
    /**
     * Makes this process lead `election` (default: the module's default election), or stop leading it.
     *
     * `true` joins if needed, removes the stand-ins queued ahead and resolves once `isLeader$` emitted
     * true. When an earlier leader was interrupted (`interruptLeader`, or a section of this process
     * that failed or lost leadership) the recovery handler runs first; if it throws, this rejects with
     * `RecoveryFailedError`: leadership is not reported and the state stays dirty, and the election
     * retries the recovery by itself with back-off (100 ms doubling to 5 s), as in production; call
     * again to wait for that. `false` queues a stand-in and deletes this process's node ahead of it:
     * the election sees its node go, `isLeader$` emits false, running leader sections' `signal`
     * aborts (they end with `LeadershipLostError`), and it joins again at the back, behind the
     * stand-in. Resolves once this process does not lead.
     */
    async setLeader(leading, election = this.options.election.name) {
        const target = this.election(election);
        if (!leading) {
            await this.standIns.depose(target.path, this.session.sessionId);
            await notLeading(target);
            return;
        }
        // Listening before the stand-ins go: a failing recovery reports it once.
        const subscriptions = [];
        const led = new Promise((resolve, reject) => {
            subscriptions.push(this.events.events$.subscribe((event) => {
                if (event.type === 'leadership.recovery' && event.outcome === 'failed' && event.path === target.path) {
                    reject(new RecoveryFailedError(znodePaths.ready(target.path), event.error));
                }
            }), target.isLeader$.subscribe({ next: (isLeader) => isLeader && resolve(), complete: () => reject(new ElectionClosedError(target.name)) }));
        });
        led.catch(() => undefined); // awaited below, unless joining failed first
        try {
            if (!target.isParticipating)
                target.join();
            await target.joined();
            await this.standIns.dismiss(target.path);
            await led;
        }
        finally {
            for (const subscription of subscriptions)
                subscription.unsubscribe();
        }
    }
    /**
     * Stages an earlier leader of `election` that died mid-section: the stand-in at the head of its
     * queue (queued first if nobody is) leaves the ready state dirty under its fencing token, with
     * `checkpoint`. The next leader (this process, on `setLeader(true)`) runs its `@OnLeaderRecovery`
     * / `onRecovery` handler with the returned section before reporting leadership. Rejects while
     * this process heads the queue (leads, or is taking over).
     */
    async interruptLeader(left = {}) {
        const name = validateLockName(left.election ?? this.options.election.name);
        const dir = znodePaths.electionDir(this.options.root, name);
        return this.standIns.interruptLeader(dir, this.session.sessionId, interruption(left));
    }
    /**
     * Stages an earlier holder of lock `name` that died mid-section: a stand-in holder (another
     * session) takes the lock, enters its guarded section, records `checkpoint` and leaves without
     * completing it. The next guarded call (`@WithLock(name, { recover })`, `withLock(name, fn, {
     * recover })`) runs its recovery handler with the returned section before its own work. Rejects
     * while the lock is held or waited for (see `loseLock`).
     */
    async interruptLock(name, left = {}) {
        return this.standIns.interruptLock(name, interruption(left));
    }
    /**
     * Takes lock `name` away from this process's holder, as a lost session takes every lock: its
     * `signal` aborts with `LockLostError(reason)` and the loss is reported (`lock.lost`), then its
     * node is deleted, which grants the next waiter. The holder's `withLock` call ends with
     * `LockLostError`, and a guarded section stays dirty for the next holder to recover, with its
     * last checkpoint. It is the lease's own loss path (`revoke`, as at shutdown), for this one
     * lock: at the ZooKeeper level only the whole session can be lost (`cutConnection`), and a
     * holder's node deleted by someone else is not noticed by the holder. Resolves with the number
     * of leases lost (0 or 1) once the node is deleted.
     */
    async loseLock(name, reason = 'ZkLockTesting.loseLock()') {
        this.locks.pathOf(name); // validates the name
        const leases = this.locks.heldLeases().filter((lease) => lease.name === name);
        await Promise.all(leases.map((lease) => lease.revoke(reason)));
        return leases.length;
    }
    /** Whether lock `name` is held, by which token, and how many acquisitions wait behind it, as the server sees it now. */
    lockState(name) {
        const queue = this.zk.queue(this.locks.pathOf(name), 'lock');
        const head = queue[0];
        const lease = head && this.locks.heldLeases().find((held) => held.path === head.path);
        return { held: head !== undefined, token: lease?.fencingToken, waiting: Math.max(0, queue.length - 1) };
    }
    /**
     * Moves the server's clock `ms` ahead and resolves once everything due by then has run, in
     * order: a session that could not reach the server for its timeout expires, emptied containers
     * are swept, and the clients' pings and reconnection attempts on the way run too (a connected
     * session stays alive). The process's own timers (`waitMs`, back-offs, the session-loss clock)
     * keep real time.
     */
    async advanceTime(ms) {
        if (typeof ms !== 'number' || !(ms >= 0) || !Number.isFinite(ms))
            throw new InvalidOptionsError('ms', `expected a number of milliseconds >= 0, got ${describeValue(ms)}`);
        return this.zk.advance(ms);
    }
    /**
     * The server drops this process's connection. The session is `suspended` (leaders stop
     * reporting leadership at once under the default `suspendPolicy`); resolves once it is. It
     * reconnects by itself: at once, or after `forMs` of the server's clock, which runs at the speed
     * of real time and which `advanceTime` moves ahead. Back within the session timeout it is
     * `reconnected` and keeps its locks and nodes; later, the server has expired it: `expired`,
     * every lock is lost, and a new session is `connected`. The session-loss clock (`lost`) keeps
     * real time.
     */
    async cutConnection(options = {}) {
        const forMs = validateDuration('forMs', options.forMs ?? 0); // the partition's end is a timer
        const suspended = isConnectedState(this.session.state) ? whenState(this.session, (state) => !isConnectedState(state)) : undefined;
        this.zk.cut(forMs);
        await suspended;
    }
    /** The election `name` of `LeaderService`, created (and joined, after bootstrap) if needed. */
    election(name) {
        const election = this.leader.election(name);
        if (!(election instanceof TestingElection))
            throw new Error(`election "${name}" does not come from ZkLockTestingModule`);
        return election;
    }
}
function interruption(left) {
    return { holder: left.holder ?? 'interrupted-holder', checkpoint: left.checkpoint };
}
/** Resolves once `election.isLeader$` shows false (or the election closed: it leads no more). */
function notLeading(election) {
    return new Promise((resolve) => {
        const subscription = election.isLeader$.subscribe({
            next: (isLeader) => {
                if (isLeader)
                    return;
                queueMicrotask(() => subscription.unsubscribe());
                resolve();
            },
            complete: resolve,
        });
    });
}
/** Resolves once the session's state satisfies `reached`. */
function whenState(session, reached) {
    return new Promise((resolve) => {
        const subscription = session.state$.subscribe((change) => {
            if (!reached(change.state))
                return;
            queueMicrotask(() => subscription.unsubscribe());
            resolve();
        });
    });
}
//# sourceMappingURL=zk-lock-testing.js.map