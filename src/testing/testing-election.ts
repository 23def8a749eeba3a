import type { Observable } from 'rxjs';
import { ElectionClosedError } from '../errors/election-closed.error.js';
import type { Election } from '../recipes/election/leader-election.js';
import type { LeaderElectionLogger } from '../recipes/election/leader-election.js';
import type { LeaderSection } from '../recipes/election/leader-work.js';
import type { ReleaseRequest } from '../recipes/queue/release-request.js';
import type { RecoveryHandler } from '../recipes/ready/ready-state.js';
import type { ZkLockBackend } from '../services/zk-lock-backend.js';
import type { StandIns } from './stand-ins.js';

/**
 * An election of `ZkLockTestingModule`: the production `LeaderElection`, joined behind a stand-in
 * leader (see `StandIns`), so that this process leads only once the test says so
 * (`ZkLockTesting.setLeader`). `join()` first makes sure a stand-in is queued (one queued already
 * will do), then joins at the back as the real one does; everything else is the real election's,
 * including joining again by itself after losing its node or its session.
 */
export class TestingElection implements Election {
  /** The `join()` waiting for its stand-in; cleared by `resign()` and `close()`, which call it off. */
  private joining: Promise<void> | undefined;
  private lastJoin: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly election: Election,
    private readonly standIns: StandIns,
    private readonly logger: LeaderElectionLogger | undefined,
  ) {}

  get name(): string {
    return this.election.name;
  }

  get path(): string {
    return this.election.path;
  }

  get isLeader$(): Observable<boolean> {
    return this.election.isLeader$;
  }

  get isLeader(): boolean {
    return this.election.isLeader;
  }

  get leader$(): Observable<string | null> {
    return this.election.leader$;
  }

  get token(): bigint | undefined {
    return this.election.token;
  }

  get isParticipating(): boolean {
    return this.joining !== undefined || this.election.isParticipating;
  }

  get hasRecoveryHandler(): boolean {
    return this.election.hasRecoveryHandler;
  }

  get inSection(): boolean {
    return this.election.inSection;
  }

  participants(): Promise<string[]> {
    return this.election.participants();
  }

  join(): void {
    if (this.closed) throw new ElectionClosedError(this.name);
    if (this.isParticipating) return;
    const joining = this.standIns.ensureLeader(this.path).then(() => {
      if (this.joining !== joining) return; // resigned meanwhile
      this.joining = undefined;
      this.election.join();
    });
    this.joining = this.lastJoin = joining;
    joining.catch((error: unknown) => {
      if (this.joining !== joining) return; // called off (resign, close): nothing was to join
      this.joining = undefined;
      this.logger?.error(`Election ${this.path}: could not queue a stand-in leader, so did not join: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Resolves once the last `join()` has reached the real election (or was called off); rejects when it failed. */
  joined(): Promise<void> {
    return this.lastJoin;
  }

  resign(): Promise<void> {
    this.joining = undefined;
    return this.election.resign();
  }

  /** Marks the head's node: a stand-in leader does not react to it (see `ZkLockTesting` to move leadership). */
  requestStepDown(): Promise<ReleaseRequest> {
    return this.election.requestStepDown();
  }

  onRecovery(handler: RecoveryHandler): () => void {
    return this.election.onRecovery(handler);
  }

  runAsLeader<T>(fn: (section: LeaderSection) => T | Promise<T>): Promise<T | undefined> {
    return this.election.runAsLeader(fn);
  }

  close(): Promise<void> {
    this.closed = true;
    this.joining = undefined;
    return this.election.close();
  }
}

/** The production backend (`zooKeeperBackend`) with its elections joined behind stand-ins. */
export function testingBackend(production: ZkLockBackend, standIns: StandIns): ZkLockBackend {
  return {
    locks: production.locks,
    requestStepDown: (name) => production.requestStepDown(name),
    createElection: (options) => new TestingElection(production.createElection(options), standIns, options.logger),
    // The production recipe on the simulated server: a lone replica owns every partition.
    createPartitionSet: (options) => production.createPartitionSet(options),
  };
}
