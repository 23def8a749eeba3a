/**
 * The invariants a simulation checks, each defined next to its check. The workload reports what
 * its processes do (grants, sections, repairs, leadership); `checkStep` runs after every step of
 * the scheduler. A broken invariant is recorded (with the virtual time), never thrown: the run
 * goes on so that the trace shows what followed.
 */
export class Invariants {
    constructor(now, trace) {
        this.now = now;
        this.trace = trace;
        this.violations = [];
        this.revocations = { releaseRequests: 0, holdersAsked: 0, releaseAborts: 0, stepDownRequests: 0, leadersAsked: 0, stepDowns: 0 };
        this.leases = new Map();
        this.lastGrant = new Map();
        /** The leases of each read/write lock, with their mode. */
        this.shared = new Map();
        /** Per read/write lock: the highest token granted so far, and the last writer's. */
        this.rwTokens = new Map();
        /** The leases of each semaphore, with the permits each holds, and the semaphore's capacity. */
        this.permitLeases = new Map();
        this.sections = new Map();
        /** Processes whose `isLeader` the checker reads after every step. */
        this.leaders = new Map();
        /** Counts the wipes of the ensemble (see `newEra`). */
        this.era = 0;
        /** Release and step-down requests sent (of this era, and any still in flight). */
        this.requests = [];
        /** Election nodes whose leader was asked to step down: each must go (see `askedLeadersRemaining`). */
        this.askedLeaders = [];
    }
    /** Lets the checks read the ensemble's (the leader's) tree. */
    readTree(nodeOwner) {
        this.nodeOwner = nodeOwner;
    }
    violate(rule, message) {
        this.violations.push({ rule, at: this.now(), message });
        this.trace?.(`!! VIOLATION ${rule}: ${message}`);
    }
    // ---------------------------------------------------------------- locks
    /**
     * **Fencing order.** A lock's fencing tokens strictly increase in the order its holders start
     * (a holder starts when its call's `fn`, or its recovery, first runs).
     *
     * **Exclusive holding** (checked here and after every step, see `checkStep`): at no step do two
     * leases of one lock both answer `isHeld` true. A lease counts as held from its grant until
     * its `signal` aborts or `isHeld` turns false (which the library guarantees happens before the
     * server could expire its session: a paused process's lease answers false as soon as the
     * pause could have cost it the session, even before the process runs again).
     */
    granted(lock, lease) {
        const last = this.lastGrant.get(lock);
        if (last !== undefined && lease.token <= last)
            this.violate('fencing-order', `${lock}: ${lease.process} was granted token ${lease.token} after token ${last}`);
        this.lastGrant.set(lock, lease.token);
        let held = this.leases.get(lock);
        if (!held)
            this.leases.set(lock, (held = new Set()));
        held.add(lease);
        this.checkExclusive(lock);
    }
    released(lock, lease) {
        this.leases.get(lock)?.delete(lease);
    }
    /** A crashed process believes nothing any more. */
    forgetProcess(process) {
        for (const held of this.leases.values())
            for (const lease of held)
                if (lease.process === process)
                    held.delete(lease);
        for (const held of this.shared.values())
            for (const lease of held.keys())
                if (lease.process === process)
                    held.delete(lease);
        for (const { held } of this.permitLeases.values())
            for (const lease of held.keys())
                if (lease.process === process)
                    held.delete(lease);
        this.leaders.delete(process);
        // Its requests in flight may still land (what reached the server before the crash): failed now.
        for (const request of this.requests)
            if (request.process === process && request.settledAt === undefined)
                this.revocationFailed(request);
    }
    checkExclusive(lock) {
        const holders = [...(this.leases.get(lock) ?? [])].filter((lease) => lease.isHeld());
        if (holders.length > 1) {
            const who = holders.map((l) => `${l.process} (token ${l.token})`).join(' and ');
            this.violate('exclusive-holding', `${lock}: ${who} both hold it`);
            // One report per overlap: forget the older ones.
            for (const lease of holders.slice(0, -1))
                this.leases.get(lock).delete(lease);
        }
    }
    /**
     * **Re-entry within the lease.** A re-entrant call's `fn` starts only while the lease it
     * re-enters is held and its outer call has not ended (`at: 'start'`), and the outer call does not
     * end before it (`at: 'end'`: the lease is pinned). The lease may be lost while it runs, like
     * any holder's.
     */
    reentered(lock, process, lease, outerEnded, at) {
        if (outerEnded)
            this.violate('reentry-outlives-lease', `${lock}: a re-entrant call of ${process} ${at === 'start' ? 'started' : 'was still running'} after its outer call had ended`);
        else if (at === 'start' && !lease.isHeld())
            this.violate('reentry-outlives-lease', `${lock}: a re-entrant call of ${process} started while its lease was not held`);
    }
    /**
     * **Bounded release.** Once a locked call's `fn` has ended, the call does not wait for an
     * unreachable ensemble past the moment its session counts as lost: it settles within a second
     * of the process's running time (pauses excluded) of the first loss of its session after `fn`
     * ended (or of `fn`'s end, when the session was lost already). The node then goes with the
     * session, or is deleted in the background when the session comes back. (`lostAt` undefined: the
     * session never counted as lost meanwhile, and the call waited for a reachable ensemble.)
     */
    callSettled(lock, process, lostAt, runningMsSinceLoss) {
        if (lostAt !== undefined && runningMsSinceLoss > 1000) {
            this.violate('unbounded-release', `${lock}: the call of ${process} settled ${Math.round(runningMsSinceLoss)} ms (running time) after its session counted as lost at ${(lostAt / 1000).toFixed(3)} s`);
        }
    }
    // ---------------------------------------------------------------- read/write locks
    /**
     * **Read/write exclusion** (checked here and after every step, see `checkStep`): at no step does
     * a writer's lease answer `isHeld` together with any other lease of the same read/write lock,
     * reader or writer; readers share. Held means as for a lock (`granted`): from the grant until
     * the lease's `signal` aborts or `isHeld` turns false (a paused process's lease answers false as
     * soon as the pause could have cost it the session).
     *
     * **Writer fencing order.** In the order holders start, a writer's token is greater than the
     * token of every holder before it (reader or writer) and less than the token of every holder
     * after it. Readers are not ordered among themselves: concurrent readers may share a token.
     */
    readWriteGranted(lock, mode, lease) {
        const tokens = this.rwTokens.get(lock);
        if (tokens) {
            if (mode === 'write' && lease.token <= tokens.highest) {
                this.violate('rw-fencing-order', `${lock}: ${lease.process} was granted the write lock with token ${lease.token} after a holder with token ${tokens.highest}`);
            }
            else if (mode === 'read' && tokens.writer !== undefined && lease.token <= tokens.writer) {
                this.violate('rw-fencing-order', `${lock}: ${lease.process} was granted the read lock with token ${lease.token} after a writer with token ${tokens.writer}`);
            }
        }
        const highest = tokens && tokens.highest > lease.token ? tokens.highest : lease.token;
        this.rwTokens.set(lock, { highest, writer: mode === 'write' ? lease.token : tokens?.writer });
        let held = this.shared.get(lock);
        if (!held)
            this.shared.set(lock, (held = new Map()));
        held.set(lease, mode);
        this.checkReadWrite(lock);
    }
    readWriteReleased(lock, lease) {
        this.shared.get(lock)?.delete(lease);
    }
    checkReadWrite(lock) {
        const all = this.shared.get(lock);
        if (!all)
            return;
        const holders = [...all].filter(([lease]) => lease.isHeld());
        if (holders.length > 1 && holders.some(([, mode]) => mode === 'write')) {
            const who = holders.map(([l, mode]) => `${l.process} (${mode}, token ${l.token})`).join(' and ');
            this.violate('rw-exclusion', `${lock}: ${who} hold it at once, a writer among them`);
            // One report per overlap: forget the older ones.
            for (const [lease] of holders.slice(0, -1))
                all.delete(lease);
        }
    }
    // ---------------------------------------------------------------- semaphores
    /**
     * **Permits** (checked here and after every step): at no step do the leases of a semaphore that
     * answer `isHeld` hold more than its `permits` together (each holds the `take` it asked for, all
     * at once). Held as for a lock (see `granted`).
     */
    permitsGranted(semaphore, permits, take, lease) {
        let entry = this.permitLeases.get(semaphore);
        if (!entry)
            this.permitLeases.set(semaphore, (entry = { permits, held: new Map() }));
        entry.held.set(lease, take);
        this.checkPermits(semaphore);
    }
    permitsReleased(semaphore, lease) {
        this.permitLeases.get(semaphore)?.held.delete(lease);
    }
    checkPermits(semaphore) {
        const entry = this.permitLeases.get(semaphore);
        if (!entry)
            return;
        const holders = [...entry.held].filter(([lease]) => lease.isHeld());
        const taken = holders.reduce((sum, [, take]) => sum + take, 0);
        if (taken > entry.permits) {
            const who = holders.map(([l, take]) => `${l.process} (${take}, token ${l.token})`).join(', ');
            this.violate('permits-exceeded', `${semaphore}: ${taken} of its ${entry.permits} permits held at once by ${who}`);
            for (const [lease] of holders.slice(0, -1))
                entry.held.delete(lease);
        }
    }
    // ---------------------------------------------------------------- guarded sections (locks and leaders)
    /**
     * **Repair.** Every interrupted guarded section (its `fn` began but did not return) is repaired
     * by the successor that next begins a section of the same lock or election, before that
     * successor's own work: when a section begins, no earlier section of its scope may still be
     * interrupted and unrepaired. A repair counts once the successor's take-over was recorded
     * (its own section began, or for leaders, it reported leadership).
     *
     * **Exactly once, and only what was interrupted.** A section is repaired at most once; a section
     * whose call succeeded (its completion was recorded) is never repaired; a repaired section's
     * call never succeeds afterwards. (A section whose `fn` never began, because the holder lost
     * its lock between marking the section and starting it, may be repaired: nobody can tell.)
     */
    sectionBegan(scope, token, process, attempt) {
        const list = this.sections.get(scope) ?? [];
        this.sections.set(scope, list);
        if (attempt)
            this.sectionWithdrawn(attempt);
        // Also an earlier section of the same token: a leader whose leadership was suspended mid-section
        // and came back repairs its own section before its next one.
        for (const earlier of list) {
            if (earlier.begun && !earlier.finished && !earlier.repaired && !earlier.maybeRepaired) {
                this.violate('unrepaired-section', `${scope}: ${process} (token ${token}) began a section while the section of token ${earlier.token} was interrupted and not repaired`);
                earlier.repaired = true; // report once
            }
        }
        const section = { scope, token, begun: true, finished: false, succeeded: false, repaired: false };
        list.push(section);
        return section;
    }
    /**
     * A call that may mark a section under `token` (a leader's `runAsLeader`) starts: until its `fn`
     * begins (`sectionBegan` with this attempt) or it turns out it never marked (`sectionWithdrawn`),
     * the ready znode may hold its mark (a lost reply, a crash after the write), so a repair of
     * `token` is legitimate whatever became of the token's earlier sections.
     */
    sectionAttempted(scope, token) {
        const list = this.sections.get(scope) ?? [];
        this.sections.set(scope, list);
        const attempt = { scope, token, begun: false, finished: false, succeeded: false, repaired: false };
        list.push(attempt);
        return attempt;
    }
    sectionWithdrawn(attempt) {
        const list = this.sections.get(attempt.scope);
        const at = list?.indexOf(attempt) ?? -1;
        if (at >= 0)
            list.splice(at, 1);
    }
    sectionFinished(section) {
        section.finished = true;
    }
    sectionSucceeded(section) {
        if (section.repaired)
            this.violate('repaired-then-completed', `${section.scope}: the call of token ${section.token} succeeded although a successor had repaired its section`);
        section.succeeded = true;
    }
    /** A successor's repair of `token` was recorded (see `sectionBegan`). */
    repairRecorded(scope, token, process) {
        // The ready znode holds one mark per token: a section of a token is marked only after any
        // earlier interrupted section of it was repaired, so one repair covers whatever the token left.
        const sections = (this.sections.get(scope) ?? []).filter((s) => s.token === token);
        if (sections.length === 0)
            return; // marked but never begun: allowed (see above)
        const open = sections.filter((s) => !s.repaired && !s.succeeded);
        if (open.length === 0) {
            if (sections.some((s) => s.repaired))
                this.violate('double-repair', `${scope}: ${process} repaired the section of token ${token} a second time`);
            else
                this.violate('spurious-repair', `${scope}: ${process} repaired the section of token ${token}, whose call had succeeded`);
            return;
        }
        for (const section of open)
            section.repaired = true;
    }
    /**
     * A successor's recovery of `token` ran: its take-over write goes out next, and may be recorded
     * (a write can be applied and its reply lost, or its process stopped before it learns), or not.
     * From then on the next successor may find the section repaired, or repair it again: both are
     * right, so neither is reported. (A successor that skips the repair of a section nobody tried to
     * repair is still caught.)
     */
    repairMaybeRecorded(scope, token) {
        for (const section of this.sections.get(scope) ?? [])
            if (section.token === token && !section.repaired)
                section.maybeRepaired = true;
    }
    /**
     * Every server restarted with an empty data directory: every session, queue node and ready
     * znode is gone at once and zxids start over, so no fencing token or repair can relate the new
     * era to the old one, and a holder of the old era may still believe it holds (until its loss
     * clock runs out) while a new session is granted the lock on the empty tree: data loss no
     * client can see coming (the chaos checker's "eras"). Every invariant holds within an era.
     */
    newEra() {
        this.era++;
        this.leases.clear();
        this.lastGrant.clear();
        this.shared.clear();
        this.rwTokens.clear();
        this.permitLeases.clear();
        this.sections.clear();
        this.lastLeaderToken = undefined;
        // Paths and session ids start over: only a request still in flight can mark a node of the new era.
        this.requests = this.requests.filter((request) => request.settledAt === undefined);
        this.askedLeaders = [];
    }
    // ---------------------------------------------------------------- revocation (release and step-down requests)
    /** A request to let go of `target` (a lock's name, or `election:<name>`) was sent by `process`. */
    revocationSent(target, process) {
        const request = { target, process, sentAt: this.now() };
        this.requests.push(request);
        if (target.startsWith('election:'))
            this.revocations.stepDownRequests++;
        else
            this.revocations.releaseRequests++;
        return request;
    }
    /** The request was answered: it marked `asked`'s node, or (null) nobody's. */
    revocationAnswered(request, asked) {
        if (request.settledAt !== undefined)
            return; // its process crashed meanwhile: counted as failed
        request.settledAt = this.now();
        request.asked = asked;
        if (!asked)
            return;
        if (request.target.startsWith('election:')) {
            this.revocations.leadersAsked++;
            this.askedLeaders.push({ node: asked.node, sessionId: asked.sessionId, at: this.now() });
        }
        else {
            this.revocations.holdersAsked++;
        }
    }
    /** The request failed (or its process died with it in flight): its mark may have landed, on a node it never named. */
    revocationFailed(request) {
        if (request.settledAt !== undefined)
            return;
        request.settledAt = this.now();
        request.failed = true;
    }
    /**
     * **Asked before told.** A lease's `releaseRequested` aborts only once a request targeted its
     * holder: its reason is a `ReleaseRequestedError` that names the lease's own node, and a request
     * to release that lock was sent before the abort that marked that very node (same path, same
     * session), or is still unanswered, or failed after the lease's call began (a failed request's
     * mark may have landed on whichever node headed the queue then, which its getData saw, so one
     * made before it failed). `reasonNode`: the node the abort's reason names (undefined: the reason
     * is not a `ReleaseRequestedError`).
     */
    releaseRequestedAborted(lock, lease, reasonNode) {
        const node = lease.node;
        if (!node)
            return;
        this.revocations.releaseAborts++;
        const who = `${lease.process} (token ${lease.token}, ${node.path})`;
        if (reasonNode !== node.path) {
            this.violate('unrequested-release', `${lock}: the releaseRequested of ${who} aborted with a reason that names ${reasonNode ?? 'no node'}`);
            return;
        }
        const asked = this.requests.some((r) => r.target === lock &&
            (r.settledAt === undefined || (r.failed && r.settledAt >= node.callStartedAt) || (r.asked?.node === node.path && r.asked.sessionId === node.sessionId)));
        if (!asked)
            this.violate('unrequested-release', `${lock}: the releaseRequested of ${who} aborted, but no request to release ${lock} marked its node`);
    }
    /**
     * **Held until its call ends** (the holder's side of "never released on its behalf"): a plain
     * lock's lease still answers `isHeld` when its call's `fn` ends, unless its session counted as
     * lost (or in doubt) meanwhile, or its process began shutting down (`excused`). Nothing ends a
     * holding on request: a holder that did not read `releaseRequested` keeps the lock for as long as
     * its call runs, and one that read it ends its call itself.
     */
    callEnded(lock, lease, excused) {
        if (excused || !this.leases.get(lock)?.has(lease) || lease.isHeld())
            return;
        this.violate('released-on-behalf', `${lock}: the lease of ${lease.process} (token ${lease.token}) was no longer held when its call's fn ended, though its session was never lost`);
    }
    /**
     * **Never released on the holder's behalf** (checked after every step, for plain locks): while a
     * lease answers `isHeld`, its queue node exists in the leader's tree, owned by its session. A
     * request only marks the node; nothing but the holder's own release or the end of its session
     * (and `isHeld` answers false before the server could end it) removes it.
     */
    checkNodeKept(lock) {
        const nodeOwner = this.nodeOwner;
        const held = this.leases.get(lock);
        if (!nodeOwner || !held)
            return;
        for (const lease of held) {
            if (!lease.node || !lease.isHeld())
                continue;
            const owner = nodeOwner(lease.node.path);
            if (owner === lease.node.sessionId)
                continue;
            this.violate('released-on-behalf', `${lock}: ${lease.process} (token ${lease.token}) holds, but its node ${lease.node.path} ${owner === undefined ? 'is gone' : `belongs to session 0x${owner}`}`);
            held.delete(lease); // report once
        }
    }
    /**
     * **Step-down only when asked.** A leader steps down (`leadership.step-down`) only once a
     * step-down request of its election was sent that marked its node (the node carries its
     * identity), or is still unanswered, or failed.
     */
    steppedDown(election, process, token) {
        this.revocations.stepDowns++;
        const asked = this.requests.some((r) => r.target === `election:${election}` && (r.settledAt === undefined || r.failed || r.asked?.identity === process));
        if (!asked)
            this.violate('unrequested-step-down', `${election}: ${process} stepped down (token ${token}) though no step-down request marked its node`);
    }
    /**
     * **Step-down liveness** (checked once the faults are over, see `simulate`): the node of every
     * leader that was asked to step down goes within a bound: the leader stepped down and deleted it,
     * or its session ended. Returns those still in the leader's tree, owned by the same session.
     */
    askedLeadersRemaining() {
        const nodeOwner = this.nodeOwner;
        if (!nodeOwner)
            return [];
        return this.askedLeaders.filter((asked) => nodeOwner(asked.node) === asked.sessionId);
    }
    // ---------------------------------------------------------------- leadership
    /**
     * **Leaders never overlap** (checked after every step): at most one live process answers
     * `isLeader` true. **Leadership tokens** strictly increase from one leadership to the next.
     */
    watchLeader(process, isLeader, alive) {
        this.leaders.set(process, { isLeader, alive, era: this.era });
    }
    leadershipGained(process, token) {
        const leader = this.leaders.get(process);
        if (leader)
            leader.era = this.era;
        if (token === undefined)
            return;
        if (this.lastLeaderToken !== undefined && token < this.lastLeaderToken) {
            this.violate('leader-token-order', `${process} leads with token ${token} after a leadership with token ${this.lastLeaderToken}`);
        }
        this.lastLeaderToken = token;
    }
    /** After every step. */
    checkStep() {
        for (const lock of this.leases.keys()) {
            this.checkExclusive(lock);
            this.checkNodeKept(lock);
        }
        for (const lock of this.shared.keys())
            this.checkReadWrite(lock);
        for (const semaphore of this.permitLeases.keys())
            this.checkPermits(semaphore);
        let leaders;
        for (const [process, leader] of this.leaders) {
            // A leader of an era before a wipe may still believe it leads: not comparable (see `newEra`).
            if (leader.era === this.era && leader.alive() && leader.isLeader())
                (leaders ??= []).push(process);
        }
        if (leaders && leaders.length > 1) {
            this.violate('leaders-overlap', `${leaders.join(' and ')} lead at once`);
            for (const process of leaders.slice(0, -1))
                this.leaders.delete(process);
        }
    }
}
//# sourceMappingURL=invariants.js.map