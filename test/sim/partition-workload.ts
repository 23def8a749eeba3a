/**
 * A simulated process's part in partitioned leadership: it joins the partition set `shards` (the
 * production `PartitionSet` on its session) and, while it works, runs guarded work on partitions it
 * owns: random hold times in steps with checkpoints, some runs that end early when their partition
 * is to move (`moveRequested`), some that throw on purpose (the state stays dirty: the owner gives
 * the partition up and takes it again, and repairs its own run), and a recovery handler that
 * sometimes fails. Everything it sees goes to the invariants: take-overs and their tokens, what it
 * claims at each step (`PartitionInvariants`), and each run as a guarded section of scope
 * `partition:<k>` (`Invariants`), so that a run interrupted by a crash, a pause or a cut must be
 * repaired exactly once, by the next owner, before that owner's own work.
 */
import { PartitionSet, type PartitionSection } from '../../src/recipes/partition/partition-set.js';
import type { InterruptedSection, RecoverySuccessor } from '../../src/recipes/ready/ready-state.js';
import type { SimRandom } from '../../src/zookeeper/simulated/sim-random.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import type { Invariants } from './invariants.js';
import type { PartitionInvariants } from './partition-invariants.js';

export const PARTITION_SET = 'shards';

/** The scope of partition `k`'s guarded sections in `Invariants`. */
const scope = (partition: number) => `partition:${partition}`;

/** What the workload needs of its process. */
export interface PartitionHost {
  readonly actor: string;
  readonly root: string;
  readonly random: SimRandom;
  readonly invariants: Invariants;
  readonly partitions: PartitionInvariants;
  /** The process still starts work. */
  running(): boolean;
  /** Neither crashed nor shut down. */
  alive(): boolean;
  sleep(ms: number): Promise<void>;
  track<T>(what: string, fn: () => Promise<T>): Promise<T>;
  note(text: string): void;
  /** Fails the run unless `error` is one of the library's typed errors. */
  expectLibraryError(error: unknown, what: string): void;
}

/** A run or recovery that fails on purpose. */
class PartitionWorkloadError extends Error {
  override readonly name = 'PartitionWorkloadError';
}

export class PartitionWorkload {
  private readonly set: PartitionSet;
  /** The runs in progress, per partition, with the run itself: its `signal` is read afresh at each check. */
  private readonly runs = new Map<number, Set<PartitionSection>>();
  /** A recovery the handler ran for partition k, waiting for that take-over to be reported. */
  private readonly repairs = new Map<number, { interrupted: bigint; successor: bigint }>();
  /** The token of the ownership last reported per partition: a suspension that ends reports it again. */
  private readonly reported = new Map<number, bigint>();

  constructor(
    private readonly host: PartitionHost,
    session: ZkSession,
    count: number,
  ) {
    const logger = { warn: (m: string) => host.note(`partitions: ${m}`), error: (m: string) => host.note(`partitions (error): ${m}`) };
    this.set = new PartitionSet(session, { root: host.root, name: PARTITION_SET, count, identity: host.actor, drainTimeoutMs: 2000, logger });
    this.set.onRecovery((partition, interrupted, successor) => this.recover(partition, interrupted, successor));
    host.partitions.watch(host.actor, () => this.claims(), () => host.alive());
    this.set.owned$.subscribe((owned) => this.reportOwned(owned));
  }

  start(): void {
    this.set.start();
    void this.loop();
  }

  /** Leaves the set (drains the runs, releases every partition). */
  close(): Promise<void> {
    return this.set.close();
  }

  /** What the set reports owned now. */
  get owned(): readonly number[] {
    return this.set.ownedNow;
  }

  /** Its member node's name on the current session (how the assignment names it), once made. */
  get memberId(): string | undefined {
    return this.set.memberId;
  }

  private claims(): Map<number, bigint> {
    const claims = new Map<number, bigint>();
    for (const partition of this.set.ownedNow) {
      const token = this.set.ownership(partition)?.token;
      if (token !== undefined) claims.set(partition, token);
    }
    for (const [partition, runs] of this.runs) for (const run of runs) if (!run.signal.aborted) claims.set(partition, run.token);
    return claims;
  }

  private reportOwned(owned: readonly number[]): void {
    for (const partition of owned) {
      const token = this.set.ownership(partition)?.token;
      if (token === undefined || this.reported.get(partition) === token) continue;
      this.reported.set(partition, token);
      this.host.note(`owns partition ${partition} (token ${token})`);
      this.host.partitions.tookOver(this.host.actor, partition, token);
      // The recovery ran for this take-over, and the partition is reported only after its take-over
      // write: the repair is recorded. One for another take-over (lost before it was reported) is dropped.
      const repair = this.repairs.get(partition);
      this.repairs.delete(partition);
      if (repair && repair.successor === token) {
        this.host.partitions.counts.repairs++;
        this.host.invariants.repairRecorded(scope(partition), repair.interrupted, this.host.actor);
      }
    }
  }

  private recover(partition: number, interrupted: InterruptedSection, successor: RecoverySuccessor): void {
    const fail = this.host.random.chance(0.1);
    this.host.note(`partition ${partition} recovery of token ${interrupted.token}${fail ? ' (fails on purpose)' : ''}`);
    if (fail) throw new PartitionWorkloadError('partition recovery failed on purpose');
    this.repairs.set(partition, { interrupted: interrupted.token, successor: successor.token });
    this.host.invariants.repairMaybeRecorded(scope(partition), interrupted.token);
  }

  private async loop(): Promise<void> {
    const { host } = this;
    while (host.running()) {
      await host.sleep(host.random.between(50, 600));
      if (!host.running()) return;
      const owned = this.set.ownedNow;
      if (owned.length > 0) await this.runOnce(host.random.pick([...owned])).catch(() => undefined);
    }
  }

  /** One run on `partition`, its behaviour drawn at random. */
  private runOnce(partition: number): Promise<void> {
    const { host } = this;
    const r = host.random;
    const holdMs = r.chance(0.2) ? r.between(300, 2000) : r.between(0, 300);
    const steps = r.between(1, 3);
    const fail = r.chance(0.05);
    const heedsMove = r.chance(0.5);
    const token = this.set.ownership(partition)?.token;
    // From here the run may mark the section under this token (a lost reply, a crash after the write).
    const attempt = token === undefined ? undefined : host.invariants.sectionAttempted(scope(partition), token);
    let section: ReturnType<Invariants['sectionBegan']> | undefined;
    const done = Symbol('done');
    const what = `partition run ${partition}`;
    return host.track(what, () =>
      this.set.run(partition, async (run) => {
        section = host.invariants.sectionBegan(scope(partition), run.token, host.actor, attempt);
        host.partitions.counts.runs++;
        const runs = this.runs.get(partition) ?? new Set<PartitionSection>();
        this.runs.set(partition, runs);
        runs.add(run);
        try {
          for (let step = 0; step < steps; step++) {
            await host.sleep(holdMs / steps);
            if (heedsMove && run.moveRequested.aborted) {
              host.note(`ends its run of partition ${partition} early (token ${run.token}): the partition moves`);
              break;
            }
            await run.checkpoint({ step });
          }
          if (fail) throw new PartitionWorkloadError('partition run failed on purpose');
          host.invariants.sectionFinished(section);
          return done;
        } finally {
          runs.delete(run);
        }
      }).then(
        (result) => {
          if (result === done && section) host.invariants.sectionSucceeded(section);
          if (result === undefined && !section && attempt) host.invariants.sectionWithdrawn(attempt); // not owned: nothing marked
        },
        (error: unknown) => {
          host.note(`${what} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
          if (!(error instanceof PartitionWorkloadError)) host.expectLibraryError(error, what);
        },
      ),
    );
  }
}
