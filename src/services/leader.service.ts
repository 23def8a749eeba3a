import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Observable } from 'rxjs';
import { ElectionClosedError } from '../errors/election-closed.error.js';
import { rehearseHandOverOnce } from '../recipes/election/hand-over-rehearsal.js';
import type { Election } from '../recipes/election/leader-election.js';
import type { LeaderSection } from '../recipes/election/leader-work.js';
import type { ReleaseRequest } from '../recipes/queue/release-request.js';
import type { RecoveryHandler } from '../recipes/ready/ready-state.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import { leaderContext } from './leader-context.js';
import { ZK_LOCK_BACKEND, type ZkLockBackend } from './zk-lock-backend.js';

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
@Injectable()
export class LeaderService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ZkLock');
  private readonly elections = new Map<string, Election>();
  private bootstrapped = false;
  /** The hand-over warm-up was asked for (see `warmUp`). */
  private warmingUp = false;
  private shutDown = false;

  constructor(
    @Inject(ZK_LOCK_BACKEND) private readonly backend: ZkLockBackend,
    @Inject(ZK_LOCK_OPTIONS) private readonly options: ResolvedZkLockOptions,
  ) {}

  /** The election `name` (default: the module's default election), created on first use. */
  election(name: string = this.options.election.name): Election {
    const existing = this.elections.get(name);
    if (existing) return existing;
    if (this.shutDown) throw new ElectionClosedError(name);
    const election = this.backend.createElection({
      root: this.options.root,
      name,
      identity: this.options.identity,
      suspendPolicy: this.options.election.suspendPolicy,
      drainTimeoutMs: this.options.drainTimeoutMs,
      logger: this.logger,
    });
    this.elections.set(name, election);
    if (this.bootstrapped && this.options.election.joinOnBootstrap) election.join();
    if (this.bootstrapped) this.warmUp();
    return election;
  }

  /** Names of the elections this service knows (created by use, decorators or configuration). */
  electionNames(): string[] {
    return [...this.elections.keys()];
  }

  /** Default election: the fencing token of this process's leadership, while it leads. */
  get token(): bigint | undefined {
    return this.election().token;
  }

  /** Default election: whether this process leads (replays, distinct, completes on shutdown). */
  get isLeader$(): Observable<boolean> {
    return this.election().isLeader$;
  }

  /** Default election: leads right now (also false at once after a stall of this process). */
  get isLeader(): boolean {
    return this.election().isLeader;
  }

  /** Default election: identity of the current leader, or null. */
  get leader$(): Observable<string | null> {
    return this.election().leader$;
  }

  /** Default election: identities of all participants, leader first. */
  participants(): Promise<string[]> {
    return this.election().participants();
  }

  /** Default election: join (again) at the back of the queue. */
  join(): void {
    this.election().join();
  }

  /** Default election: stop leading and leave the queue, handing leadership over at once. */
  resign(): Promise<void> {
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
  requestStepDown(election: string = this.options.election.name): Promise<ReleaseRequest> {
    return this.backend.requestStepDown(election);
  }

  /** Default election: the recovery handler (one per election). */
  onRecovery(handler: RecoveryHandler): () => void {
    return this.election().onRecovery(handler);
  }

  /**
   * Runs `fn` as a guarded leader section of the default election (or `election`) if this
   * process leads it, else resolves undefined without running it. Inside, `current()` returns
   * the section. Called from inside leader work of the same election (or its recovery handler
   * during a take-over), `fn` runs as part of that instead (see `LeaderOnly`).
   */
  runAsLeader<T>(fn: (section: LeaderSection) => T | Promise<T>, election?: string): Promise<T | undefined> {
    return this.election(election).runAsLeader((section) => leaderContext.run(section, () => fn(section)));
  }

  /**
   * The leader section the current call runs in (inside a `@LeaderOnly` method or a
   * `runAsLeader` callback): its fencing `token`, its `signal` (aborted when leadership ends) and
   * `checkpoint(progress)` for the next leader's recovery handler. Undefined elsewhere.
   */
  current(): LeaderSection | undefined {
    return leaderContext.getStore();
  }

  onApplicationBootstrap(): void {
    this.bootstrapped = true;
    // A configured default election takes part from the start; otherwise only elections that
    // something asked for (decorators found at init, code that called election()) join.
    if (this.options.electionConfigured) this.election();
    if (this.options.election.joinOnBootstrap) for (const election of this.elections.values()) election.join();
    this.warmUp();
  }

  /** See `ZkLockElectionOptions.warmUpHandOver`: once per process, once the module has an election. */
  private warmUp(): void {
    if (!this.options.election.warmUpHandOver || this.elections.size === 0 || this.warmingUp) return;
    this.warmingUp = true; // later elections find it started: one outcome, logged once
    rehearseHandOverOnce().catch((error: unknown) =>
      this.logger.warn(`The hand-over rehearsal failed (this process's first hand-over may be slower): ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.shutDown = true;
    await Promise.all([...this.elections.values()].map((election) => election.close()));
  }
}
