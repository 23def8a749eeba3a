import { ElectionClosedError } from '../errors/election-closed.error.js';
/**
 * An election of `ZkLockTestingModule`: the production `LeaderElection`, joined behind a stand-in
 * leader (see `StandIns`), so that this process leads only once the test says so
 * (`ZkLockTesting.setLeader`). `join()` first makes sure a stand-in is queued (one queued already
 * will do), then joins at the back as the real one does; everything else is the real election's,
 * including joining again by itself after losing its node or its session.
 */
export class TestingElection {
    constructor(election, standIns, logger) {
        this.election = election;
        this.standIns = standIns;
        this.logger = logger;
        this.lastJoin = Promise.resolve();
        this.closed = false;
    }
    get name() {
        return this.election.name;
    }
    get path() {
        return this.election.path;
    }
    get isLeader$() {
        return this.election.isLeader$;
    }
    get isLeader() {
        return this.election.isLeader;
    }
    get leader$() {
        return this.election.leader$;
    }
    get token() {
        return this.election.token;
    }
    get isParticipating() {
        return this.joining !== undefined || this.election.isParticipating;
    }
    get hasRecoveryHandler() {
        return this.election.hasRecoveryHandler;
    }
    get inSection() {
        return this.election.inSection;
    }
    participants() {
        return this.election.participants();
    }
    join() {
        if (this.closed)
            throw new ElectionClosedError(this.name);
        if (this.isParticipating)
            return;
        const joining = this.standIns.ensureLeader(this.path).then(() => {
            if (this.joining !== joining)
                return; // resigned meanwhile
            this.joining = undefined;
            this.election.join();
        });
        this.joining = this.lastJoin = joining;
        joining.catch((error) => {
            if (this.joining !== joining)
                return; // called off (resign, close): nothing was to join
            this.joining = undefined;
            this.logger?.error(`Election ${this.path}: could not queue a stand-in leader, so did not join: ${error instanceof Error ? error.message : String(error)}`);
        });
    }
    /** Resolves once the last `join()` has reached the real election (or was called off); rejects when it failed. */
    joined() {
        return this.lastJoin;
    }
    resign() {
        this.joining = undefined;
        return this.election.resign();
    }
    /** Marks the head's node: a stand-in leader does not react to it (see `ZkLockTesting` to move leadership). */
    requestStepDown() {
        return this.election.requestStepDown();
    }
    onRecovery(handler) {
        return this.election.onRecovery(handler);
    }
    runAsLeader(fn) {
        return this.election.runAsLeader(fn);
    }
    close() {
        this.closed = true;
        this.joining = undefined;
        return this.election.close();
    }
}
/** The production backend (`zooKeeperBackend`) with its elections joined behind stand-ins. */
export function testingBackend(production, standIns) {
    return {
        locks: production.locks,
        requestStepDown: (name) => production.requestStepDown(name),
        createElection: (options) => new TestingElection(production.createElection(options), standIns, options.logger),
    };
}
//# sourceMappingURL=testing-election.js.map