import { BehaviorSubject, type Observable } from 'rxjs';
import { InvalidPartitionCountError } from '../../errors/invalid-partition-count.error.js';
import { PartitionOutOfRangeError } from '../../errors/partition-out-of-range.error.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { EventSink } from '../../observability/event-sink.js';
import { LeaderElection } from '../election/leader-election.js';
import type { LeadershipEventsByChannel } from '../election/leadership-events.js';
import type { LockEventsByChannel } from '../lock/lock-events.js';
import { validateLockName } from '../lock-name.js';
import { LockClient } from '../lock/lock-client.js';
import type { InterruptedSection, RecoveryHandler, RecoverySuccessor } from '../ready/ready-state.js';
import { znodePaths } from '../znode-paths.js';
import { Assigner } from './assigner.js';
import { AssignmentView } from './assignment-view.js';
import { Membership } from './membership.js';
import { PartitionHolder } from './partition-holder.js';
import { PartitionWork, type PartitionSection } from './partition-work.js';

export type { PartitionSection } from './partition-work.js';

export interface PartitionSetLogger {
  warn(message: string): void;
  error(message: string): void;
}

export interface PartitionSetOptions {
  /** Root znode, e.g. `/zk-lock`; the set lives in `<root>/partitions/<name>`. */
  readonly root: string;
  /** The set's name (one znode name, validated like lock names). */
  readonly name: string;
  /** How many partitions (0 … count - 1); every replica of the set must declare the same. */
  readonly count: number;
  /** Stored in our member node and ready records. */
  readonly identity: string;
  /** This replica's weight (a positive integer). Default 1. */
  readonly capacity?: number;
  /** How long `close()` lets running work finish before the partitions' locks are revoked. Default 10000. */
  readonly drainTimeoutMs?: number;
  readonly logger?: PartitionSetLogger;
  /** Where the partitions' lock events and the assigner's leadership events go. Default: the `node:diagnostics_channel` channels only. */
  readonly events?: EventSink<LockEventsByChannel & LeadershipEventsByChannel>;
}

/** Repairs what an owner of `partition` left half-done; runs in its next owner before that one's work. */
export type PartitionRecoveryHandler = (partition: number, interrupted: InterruptedSection, successor: RecoverySuccessor) => unknown;

/**
 * Partitioned leadership: `count` partitions of work, each owned by exactly one replica of the set,
 * spread evenly over the replicas, moved as little as possible.
 *
 * - **Ownership is a lock.** Partition k is owned by whoever holds the fair lock
 *   `<set>/locks/<k>`: at most one owner, a fencing `token` that grows over its owners, a `signal`
 *   that aborts before anyone else can be granted it (expiry, pause, cut-off: as for any lease),
 *   and a ready znode. A new owner whose predecessor died (or threw) mid-work runs the recovery
 *   handler first, before the partition is reported owned.
 * - **Assignment is advice.** The replica that leads the set's election (`<set>/elections/assigner`)
 *   writes which member should own what (`<set>/assignment`, `assignPartitions`: even, sticky,
 *   deterministic) from the member nodes (`<set>/members`). Each replica queues for the locks of
 *   its partitions and, for partitions assigned elsewhere, stops starting work, lets the running
 *   work finish and releases: the taker waits in the lock's queue meanwhile, nothing is taken by
 *   force. A crashed replica's locks go with its session, after its timeout.
 */
export class PartitionSet {
  readonly name: string;
  readonly count: number;
  /** The set's directory znode. */
  readonly path: string;
  private readonly owned = new BehaviorSubject<readonly number[]>([]);
  private readonly locks: LockClient;
  private readonly holders: PartitionHolder[];
  private readonly membership: Membership;
  private readonly assigner: Assigner;
  private readonly assignment: AssignmentView;
  private readonly work: PartitionWork;
  private readonly logger: PartitionSetLogger;
  private recovery: PartitionRecoveryHandler | undefined;
  private started = false;
  private closed = false;

  constructor(
    session: ZkSessionClient,
    private readonly options: PartitionSetOptions,
  ) {
    this.name = validateLockName(options.name);
    this.count = options.count;
    if (!Number.isInteger(this.count) || this.count < 1) throw new InvalidPartitionCountError(this.name, 'count', options.count);
    const capacity = options.capacity ?? 1;
    if (!Number.isInteger(capacity) || capacity < 1) throw new InvalidPartitionCountError(this.name, 'capacity', options.capacity);
    this.path = znodePaths.partitionSetDir(options.root, this.name);
    this.logger = options.logger ?? console;
    const paths = { members: `${this.path}/members`, assignment: `${this.path}/assignment` };
    this.locks = new LockClient(session, { root: this.path, identity: options.identity, logger: this.logger, events: options.events });
    const host = {
      session,
      locks: this.locks,
      identity: options.identity,
      recoveryFor: (partition: number): RecoveryHandler => (interrupted, successor) => this.recover(partition, interrupted, successor),
      changed: () => this.report(),
      logger: this.logger,
    };
    this.holders = Array.from({ length: this.count }, (_, k) => new PartitionHolder(k, String(k), host, this.path));
    this.work = new PartitionWork(this.locks, options.identity, host.recoveryFor);
    this.membership = new Membership(session, paths.members, options.identity, capacity, this.logger, () => this.apply());
    const electionLogger = { log() {}, warn: (message: string) => this.logger.warn(message), error: (message: string) => this.logger.error(message) };
    const election = new LeaderElection(session, { root: this.path, name: 'assigner', identity: options.identity, logger: electionLogger, events: options.events });
    this.assigner = new Assigner(session, election, paths, this.count, this.logger);
    this.assignment = new AssignmentView(session, paths.assignment, this.count, this.logger, () => this.apply());
  }

  /** The partitions this replica owns, ascending: replays the current list, emits on change, completes on `close()`. */
  get owned$(): Observable<readonly number[]> {
    return this.owned.asObservable();
  }

  /** The partitions this replica owns right now (a partition whose lease is in doubt is left out at once). */
  get ownedNow(): readonly number[] {
    return this.holders.filter((holder) => holder.lease).map((holder) => holder.partition);
  }

  /** Partition `partition`'s fencing token and signal while this replica owns it, else undefined. */
  ownership(partition: number): { readonly token: bigint; readonly signal: AbortSignal } | undefined {
    const lease = this.holders[this.check(partition)]!.lease;
    return lease && { token: lease.fencingToken, signal: lease.signal };
  }

  /** Sets the one recovery handler; returns a function that removes it. Register it before `start()`. */
  onRecovery(handler: PartitionRecoveryHandler): () => void {
    this.recovery = handler;
    return () => void (this.recovery === handler && (this.recovery = undefined));
  }

  get hasRecoveryHandler(): boolean {
    return this.recovery !== undefined;
  }

  /** Joins: makes our member node, follows the assignment, and stands for the assigner's election. Idempotent. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.membership.start();
    this.assignment.start();
    this.assigner.start();
  }

  /**
   * Runs `fn` for `partition` if this replica owns it (else resolves undefined without running it),
   * as a guarded section of its ready znode: if this process dies mid-run, the next owner's
   * recovery handler repairs it; if `fn` throws, the partition is released and taken again, so that
   * the recovery runs before any new work. Runs of one partition take turns.
   */
  run<T>(partition: number, fn: (section: PartitionSection) => T | Promise<T>): Promise<T | undefined> {
    return this.work.run(this.holders[this.check(partition)]!, fn);
  }

  /** Runs `fn` once for every partition owned now (concurrently); resolves with the results of those that ran. */
  async forEachOwned<T>(fn: (section: PartitionSection) => T | Promise<T>): Promise<T[]> {
    return this.work.forEach(this.holders.filter((holder) => holder.lease), fn);
  }

  /**
   * Asks for `partition` to move to another replica: the assigner gives it to the replica with the
   * most room (balance may move one other partition back here). Resolves once the request is
   * written into our member node (at once if this replica is not assigned it); `owned$` shows the
   * move. The partition is released after its running work, as for any move. Alone in the set,
   * the replica keeps it. The request ends once the partition went elsewhere (it may be assigned
   * back here later). A request that could not be written (`RecordContendedError`, a lost
   * session) is forgotten: no later write of the record carries it.
   */
  async handOver(partition: number): Promise<void> {
    this.check(partition);
    if (this.assignment.owners[partition] !== this.membership.id) return;
    await this.membership.decline(partition);
  }

  /**
   * Leaves the set: deletes our member node (the assigner moves our partitions at once), leaves the
   * election, lets running work finish (at most `drainTimeoutMs`; then the leases are revoked:
   * their signals abort), releases every partition's lock, and completes `owned$`. Final.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.membership.leave();
    await this.assigner.stop();
    this.assignment.stop();
    await Promise.all(this.holders.map((holder) => holder.close(this.options.drainTimeoutMs ?? 10_000)));
    await this.locks.close('the partition set was closed');
    if (this.owned.value.length > 0) this.owned.next([]);
    this.owned.complete();
  }

  /** The owner (member node name) of each partition in the stored assignment; for tests and tools. */
  get assignedOwners(): readonly (string | null)[] {
    return this.assignment.owners;
  }

  /** This replica's member node name on the current session, once made. */
  get memberId(): string | undefined {
    return this.membership.id;
  }

  private check(partition: number): number {
    if (!Number.isInteger(partition) || partition < 0 || partition >= this.count) throw new PartitionOutOfRangeError(this.path, partition, this.count);
    return partition;
  }

  /** Wants exactly the partitions the assignment gives our member node. */
  private apply(): void {
    if (this.closed) return;
    const me = this.membership.id;
    const { owners } = this.assignment;
    for (const holder of this.holders) holder.want(me !== undefined && owners[holder.partition] === me);
    // A declined partition that went elsewhere is no longer declined (stickiness keeps it there),
    // so that the assignment may give it back to us later.
    const given = this.membership.declined.filter((k) => owners[k] !== me);
    if (given.length > 0) {
      this.membership.withdraw(given).catch((error: unknown) => this.logger.warn(`Could not update member node of ${this.path}: ${String(error)}`));
    }
  }

  private report(): void {
    const now = this.ownedNow;
    const last = this.owned.value;
    if (now.length !== last.length || now.some((k, i) => k !== last[i])) this.owned.next(now);
  }

  private async recover(partition: number, interrupted: InterruptedSection, successor: RecoverySuccessor): Promise<void> {
    if (this.recovery) {
      await this.recovery(partition, interrupted, successor);
      return;
    }
    this.logger.warn(`Partition ${partition} of ${this.path}: ${interrupted.holder} (token ${interrupted.token}) was interrupted mid-work and no recovery handler is registered; marked repaired`);
  }
}
