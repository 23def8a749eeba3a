import type { LockRecipe } from '../lock/lock-client.js';
import type { InterruptedSection, RecoveryHandler } from '../ready/ready-state.js';
import type { PartitionHolder } from './partition-holder.js';

/** One run of work on an owned partition (`PartitionSet.run`, `@ForEachOwnedPartition`). */
export interface PartitionSection {
  readonly partition: number;
  /** The fencing token of this ownership: grows over the partition's owners. Pass it to the storage you write. */
  readonly token: bigint;
  /**
   * Aborts as soon as the partition is no longer owned (lost with the session, revoked at
   * shutdown). Read `run.signal.aborted` right before a side effect rather than a copy of the
   * signal taken earlier: each read asks the session, so it is aborted at once after a stall.
   */
  readonly signal: AbortSignal;
  /** Throws `LockLostError` when the partition is no longer owned: for checks between steps of long work. */
  assertHeld(): void;
  /** Records progress; the next owner's recovery handler receives the last value if this run does not finish. */
  checkpoint(progress: unknown): Promise<void>;
  /** The interrupted run that was repaired when this run entered, if any. */
  readonly recovered: InterruptedSection | undefined;
}

/**
 * Runs work on owned partitions as guarded sections of their ready znodes (`LockRecipe.enterGuarded`:
 * dirty while a run is in progress, deleted when it completes), one run at a time per partition.
 */
export class PartitionWork {
  /** Per partition: the end of the last run queued, so that runs take turns. */
  private readonly turns = new Map<number, Promise<unknown>>();

  constructor(
    private readonly locks: LockRecipe,
    private readonly identity: string,
    private readonly recoveryFor: (partition: number) => RecoveryHandler,
  ) {}

  /** `fn` as one run on `holder`'s partition if it is owned (now and when its turn comes), else undefined. */
  run<T>(holder: PartitionHolder, fn: (section: PartitionSection) => T | Promise<T>): Promise<T | undefined> {
    // Pinned before waiting for the turn: a drain waits for queued runs too (which then find the partition gone).
    const lease = holder.enter();
    if (!lease) return Promise.resolve(undefined);
    const { partition } = holder;
    const previous = this.turns.get(partition) ?? Promise.resolve();
    const turn = previous.then(async () => {
      try {
        if (holder.lease !== lease) return undefined; // draining or lost while waiting
        const owner = { token: lease.fencingToken, holder: this.identity, signal: lease.signal };
        const section = await this.locks.enterGuarded(String(partition), owner, this.recoveryFor(partition));
        // The entry's reply may come in after the lease was lost (this process stalled while it was
        // under way): no run starts as the owner of a lost partition (DESIGN §8.8).
        lease.assertHeld();
        let value: T;
        try {
          value = await fn({
            partition,
            token: lease.fencingToken,
            // The lease's own getter on each read: it notices a stall of this process at once (see `Lease.signal`).
            get signal() {
              return lease.signal;
            },
            assertHeld: () => lease.assertHeld(),
            checkpoint: (progress) => section.checkpoint(progress),
            recovered: section.recovered,
          });
        } catch (error) {
          holder.recycle(lease);
          throw error;
        }
        await section.complete();
        return value;
      } finally {
        holder.exit();
      }
    });
    const settled = turn.then(() => undefined, () => undefined);
    this.turns.set(partition, settled);
    void settled.then(() => this.turns.get(partition) === settled && this.turns.delete(partition));
    return turn;
  }

  /** `fn` on each of `holders` concurrently; the results of the runs that ran. Several failures reject with an `AggregateError`. */
  async forEach<T>(holders: readonly PartitionHolder[], fn: (section: PartitionSection) => T | Promise<T>): Promise<T[]> {
    const outcomes = await Promise.allSettled(holders.map((holder) => this.run(holder, fn)));
    const failures = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected').map((outcome) => outcome.reason as unknown);
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} partition runs failed`);
    return outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' && outcome.value !== undefined ? [outcome.value as T] : []));
  }
}
