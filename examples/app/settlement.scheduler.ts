/**
 * The singleton scheduler: every replica has the cron job, only the leader of the election
 * "scheduler" runs it. Each tick runs the settlement batches requested on this replica
 * (`POST /batches` on the leader), as a guarded leader section: if this replica dies mid-tick,
 * the next leader's `@OnLeaderRecovery` handler learns which batch was running, before it
 * reports leadership, and queues that batch again.
 */
import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { LeaderOnly, LeaderService, OnLeaderRecovery, type InterruptedSection } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { EventLog } from './events.js';
import { SettlementBatch } from './settlement.batch.js';

/** The leader section's checkpoint: the batch it is running. */
interface SchedulerProgress {
  readonly running?: string;
}

@Injectable()
export class SettlementScheduler {
  private readonly queue: string[] = [];

  constructor(
    private readonly leader: LeaderService,
    private readonly batches: SettlementBatch,
    private readonly events: EventLog,
  ) {
    // Replays the current value, then emits on every change (false first, on shutdown too).
    leader.isLeader$.subscribe((value) => this.events.emit('leader', { value, token: leader.election().token }));
  }

  /** Queues a batch for the next tick; only the leader accepts (followers' ticks never run). */
  request(batch: string): boolean {
    if (!this.leader.isLeader) return false;
    if (!this.queue.includes(batch)) this.queue.push(batch);
    return true;
  }

  get pending(): readonly string[] {
    return this.queue;
  }

  // waitForCompletion: a tick that runs a batch takes seconds; skip the ticks that fall meanwhile.
  @Cron(CronExpression.EVERY_SECOND, { name: 'settlement-scheduler', waitForCompletion: true })
  @LeaderOnly() // the module's default election, named "scheduler" in app.module.ts
  async tick(): Promise<void> {
    const section = this.leader.current()!;
    this.events.emit('tick', { token: section.token });
    while (this.queue.length > 0) {
      const batch = this.queue[0]!;
      await section.checkpoint({ running: batch } satisfies SchedulerProgress);
      await this.batches.settle(batch, section.signal);
      this.queue.shift();
    }
  }

  @OnLeaderRecovery()
  requeueInterrupted(interrupted: InterruptedSection): void {
    const { running } = (interrupted.checkpoint ?? {}) as SchedulerProgress;
    this.events.emit('leader-recovery', { holder: interrupted.holder, token: interrupted.token, running });
    // The batch lock's own recovery repairs the half-done part when the batch runs again.
    if (running && !this.queue.includes(running)) this.queue.unshift(running);
  }
}
