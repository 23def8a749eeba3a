/**
 * The chaos worker's partition workload: the worker is a replica of the partition set
 * PARTITION_SET (`ZkLockModule.forRoot({ partitions })`) and loops `@ForEachOwnedPartition`: for
 * each partition it owns, a guarded run reads that partition's fenced counter with the
 * partition's token, checkpoints the value, pauses (so that kills and stops land mid-run) and
 * writes +1 (compare-and-set), as the counter's section does. `@OnPartitionRecovery` repairs an
 * interrupted increment exactly as the counter's `repair` does. Every `owned$` value is logged
 * with its tokens, and the loss of each owned partition's lease.
 *
 * As the counter's section, a run deliberately does not look at its signal before writing: a run
 * that resumes from a SIGSTOP, or that kept working while cut off (`lingerUntil`), writes anyway,
 * and the store's per-partition fencing must refuse it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { ForEachOwnedPartition } from '../../src/decorators/for-each-owned-partition.decorator.js';
import { OnPartitionRecovery } from '../../src/decorators/on-partition-recovery.decorator.js';
import type { PartitionSection } from '../../src/recipes/partition/partition-set.js';
import type { InterruptedSection, RecoverySuccessor } from '../../src/recipes/ready/ready-state.js';
import { PartitionService } from '../../src/services/partition.service.js';
import { PARTITION_SET } from './chaos-names.js';
import type { EventLog } from './event-log.js';
import { storeRead, storeWrite } from './worker-store.js';

/** What the workload needs of its worker process. */
export interface WorkloadIo {
  readonly log: EventLog;
  describe(error: unknown): string;
  /** Until when (ms since the epoch) a run keeps working while its lease says it owns the partition: the driver cuts or stops this worker. */
  lingerUntil(): number;
}
export const WORKLOAD_IO = Symbol('chaos worker io');

/** The reason a lease's signal aborts with when its holder released it (Lease.release). */
const RELEASED = 'the lease was released';
const randomInt = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));

@Injectable()
export class PartitionWorker {
  private nextTick = 1;
  /** The tokens whose loss is watched already. */
  private readonly watched = new Set<string>();

  constructor(
    private readonly partitions: PartitionService,
    @Inject(WORKLOAD_IO) private readonly io: WorkloadIo,
  ) {}

  /** Logs every `owned$` value with its tokens, and each owned lease's loss. */
  watchOwnership(): void {
    this.partitions.owned$(PARTITION_SET).subscribe((owned) => {
      const leases = owned.flatMap((p) => {
        const ownership = this.partitions.ownership(PARTITION_SET, p);
        return ownership ? [{ p, ...ownership }] : [];
      });
      this.io.log.write({ ev: 'p-owned', partitions: leases.map(({ p }) => p), tokens: Object.fromEntries(leases.map(({ p, token }) => [p, token.toString()])) });
      for (const { p, token, signal } of leases) {
        const key = `${p}:${token}`;
        if (this.watched.has(key)) continue;
        this.watched.add(key);
        const lost = () => {
          const reason = (signal.reason as { reason?: string } | undefined)?.reason;
          // Our own release (a hand-over, a drain) ends the lease too: that is no loss.
          if (reason !== RELEASED) this.io.log.write({ ev: 'p-lost', p, token: token.toString(), error: this.io.describe(signal.reason), reason });
        };
        if (signal.aborted) lost();
        else signal.addEventListener('abort', lost, { once: true });
      }
    });
  }

  /** One tick: a run on every partition owned now. Logged when any ran or it failed. */
  async tick(): Promise<void> {
    const tick = this.nextTick++;
    try {
      // The decorated method takes (partition, run, ...the call's arguments): called with the call's arguments only.
      const ran = await (this.relay as unknown as (tick: number) => Promise<number[]>)(tick);
      if (ran.length > 0) this.io.log.write({ ev: 'p-tick-done', tick, ok: true });
    } catch (error) {
      this.io.log.write({ ev: 'p-tick-done', tick, ok: false, error: this.io.describe(error) });
      await sleep(randomInt(20, 50));
    }
  }

  @ForEachOwnedPartition(PARTITION_SET)
  async relay(partition: number, run: PartitionSection, tick: number): Promise<number> {
    const token = run.token.toString();
    const { log } = this.io;
    log.write({ ev: 'p-enter', p: partition, token, tick });
    let failure: unknown;
    try {
      const v = await storeRead(token, partition);
      await run.checkpoint({ v });
      log.write({ ev: 'p-checkpoint', p: partition, token, v });
      await sleep(randomInt(5, 40));
      // Cut off or stopped: keep working while the lease says it owns the partition (a loss reported late shows).
      while (Date.now() < this.io.lingerUntil() && !run.signal.aborted) {
        await storeRead(token, partition);
        await sleep(50);
      }
      await storeWrite(token, v, 'section', undefined, partition);
      return partition;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      log.write({ ev: 'p-exit', p: partition, token, ...(failure !== undefined && { error: this.io.describe(failure) }) });
    }
  }

  /** Completes the interrupted increment once: only if the partition's counter still holds the value it checkpointed. */
  @OnPartitionRecovery(PARTITION_SET)
  async repair(partition: number, interrupted: InterruptedSection<{ v: number } | undefined>, successor: RecoverySuccessor): Promise<void> {
    const token = successor.token.toString();
    const victim = interrupted.token.toString();
    const checkpoint = interrupted.checkpoint?.v;
    const { log } = this.io;
    log.write({ ev: 'p-recovering', p: partition, token, interrupted: victim, checkpoint });
    try {
      const current = await storeRead(token, partition);
      const repaired = checkpoint !== undefined && current === checkpoint;
      if (repaired) await storeWrite(token, checkpoint, 'repair', victim, partition);
      log.write({ ev: 'p-recovered', p: partition, token, interrupted: victim, checkpoint, repaired });
    } catch (error) {
      log.write({ ev: 'p-recover-failed', p: partition, token, interrupted: victim, error: this.io.describe(error) });
      throw error;
    }
  }
}
