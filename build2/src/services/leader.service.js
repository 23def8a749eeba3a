var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Inject, Injectable, Logger, } from '@nestjs/common';
import { ElectionClosedError } from '../errors/election-closed.error.js';
import { rehearseHandOverOnce } from '../recipes/election/hand-over-rehearsal.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { leaderContext } from './leader-context.js';
import { ZK_LOCK_BACKEND } from './zk-lock-backend.js';
/**
 * Leader election for Nest. The default election (`election.name` of the module options,
 * `default` unless set) is reachable directly on this service; `election(name)` gives others,
 * each its own queue in `<root>/elections/<name>`, with the same members.
 *
 * Lifecycle: every election known at bootstrap (the default one when `election` is configured, those named by `@LeaderOnly` /
 * `@OnLeaderRecovery`, those asked for in constructors or `onModuleInit`) joins on
 * `onApplicationBootstrap`, later ones as soon as they are asked for (unless `joinOnBootstrap` is
 * false: then each joins on `join()`). On shutdown each election stops reporting leadership, gives
 * its running leader sections `drainTimeoutMs` to finish, and deletes its node, so the next process
 * leads at once; `isLeader$` completes; the module closes the session after that.
 *
 * Recovery: `onRecovery(handler)` here or on `election(name)`, or a provider method decorated with
 * `@OnLeaderRecovery(name?)`, runs before a new leader reports leadership when the previous leader
 * died mid-section. See `LeaderElection` for the safety and failure semantics.
 */
let LeaderService = class LeaderService {
    constructor(backend, options) {
        this.backend = backend;
        this.options = options;
        this.logger = new Logger('ZkLock');
        this.elections = new Map();
        this.bootstrapped = false;
        /** The hand-over warm-up was asked for (see `warmUp`). */
        this.warmingUp = false;
        this.shutDown = false;
    }
    /** The election `name` (default: the module's default election), created on first use. */
    election(name = this.options.election.name) {
        const existing = this.elections.get(name);
        if (existing)
            return existing;
        if (this.shutDown)
            throw new ElectionClosedError(name);
        const election = this.backend.createElection({
            root: this.options.root,
            name,
            identity: this.options.identity,
            suspendPolicy: this.options.election.suspendPolicy,
            drainTimeoutMs: this.options.drainTimeoutMs,
            logger: this.logger,
        });
        this.elections.set(name, election);
        if (this.bootstrapped && this.options.election.joinOnBootstrap)
            election.join();
        if (this.bootstrapped)
            this.warmUp();
        return election;
    }
    /** Names of the elections this service knows (created by use, decorators or configuration). */
    electionNames() {
        return [...this.elections.keys()];
    }
    /** Default election: the fencing token of this process's leadership, while it leads. */
    get token() {
        return this.election().token;
    }
    /** Default election: whether this process leads (replays, distinct, completes on shutdown). */
    get isLeader$() {
        return this.election().isLeader$;
    }
    /** Default election: leads right now (also false at once after a stall of this process). */
    get isLeader() {
        return this.election().isLeader;
    }
    /** Default election: identity of the current leader, or null. */
    get leader$() {
        return this.election().leader$;
    }
    /** Default election: identities of all participants, leader first. */
    participants() {
        return this.election().participants();
    }
    /** Default election: join (again) at the back of the queue. */
    join() {
        this.election().join();
    }
    /** Default election: stop leading and leave the queue, handing leadership over at once. */
    resign() {
        return this.election().resign();
    }
    /**
     * Asks the current leader of the default election (or `election`), in this process or another,
     * to step down: a leader running this library resigns as `resign()` does (its sections get
     * `drainTimeoutMs`) and joins again at the back, so the next participant leads; alone in the
     * queue, it leads again. Nothing is deleted on the leader's behalf. Resolves with whom it asked
     * (`{ requested: true, node, identity, sessionId }`) or `{ requested: false }` when nobody takes
     * part. Does not make this process a participant of `election`.
     */
    requestStepDown(election = this.options.election.name) {
        return this.backend.requestStepDown(election);
    }
    /** Default election: the recovery handler (one per election). */
    onRecovery(handler) {
        return this.election().onRecovery(handler);
    }
    /**
     * Runs `fn` as a guarded leader section of the default election (or `election`) if this
     * process leads it, else resolves undefined without running it. Inside, `current()` returns
     * the section. Called from inside leader work of the same election (or its recovery handler
     * during a take-over), `fn` runs as part of that instead (see `LeaderOnly`).
     */
    runAsLeader(fn, election) {
        return this.election(election).runAsLeader((section) => leaderContext.run(section, () => fn(section)));
    }
    /**
     * The leader section the current call runs in (inside a `@LeaderOnly` method or a
     * `runAsLeader` callback): its fencing `token`, its `signal` (aborted when leadership ends) and
     * `checkpoint(progress)` for the next leader's recovery handler. Undefined elsewhere.
     */
    current() {
        return leaderContext.getStore();
    }
    onApplicationBootstrap() {
        this.bootstrapped = true;
        // A configured default election takes part from the start; otherwise only elections that
        // something asked for (decorators found at init, code that called election()) join.
        if (this.options.electionConfigured)
            this.election();
        if (this.options.election.joinOnBootstrap)
            for (const election of this.elections.values())
                election.join();
        this.warmUp();
    }
    /** See `ZkLockElectionOptions.warmUpHandOver`: once per process, once the module has an election. */
    warmUp() {
        if (!this.options.election.warmUpHandOver || this.elections.size === 0 || this.warmingUp)
            return;
        this.warmingUp = true; // later elections find it started: one outcome, logged once
        rehearseHandOverOnce().catch((error) => this.logger.warn(`The hand-over rehearsal failed (this process's first hand-over may be slower): ${error instanceof Error ? error.message : String(error)}`));
    }
    async beforeApplicationShutdown() {
        this.shutDown = true;
        await Promise.all([...this.elections.values()].map((election) => election.close()));
    }
};
LeaderService = __decorate([
    Injectable(),
    __param(0, Inject(ZK_LOCK_BACKEND)),
    __param(1, Inject(ZK_LOCK_OPTIONS)),
    __metadata("design:paramtypes", [Object, Object])
], LeaderService);
export { LeaderService };
//# sourceMappingURL=leader.service.js.map