/**
 * The outbox relay, partitioned: the transfers' messages fall into OUTBOX_PARTITIONS partitions,
 * each owned by exactly one replica, spread evenly over the replicas and moved as little as
 * possible when one joins or leaves (`partitions` in app.module.ts). Every second, each replica
 * publishes the pending messages of the partitions it owns, under each partition's fencing token.
 * If a replica dies mid-run, the partition's next owner learns it (`@OnPartitionRecovery`) before
 * its own first run; the messages the dead run did not publish are still pending, so they go out then.
 */
import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import {
  ForEachOwnedPartition,
  OnPartitionRecovery,
  PartitionService,
  type InterruptedSection,
  type PartitionSection,
  type RecoverySuccessor,
} from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { EventLog } from './events.js';
import { Outbox } from './outbox.js';

/** A run's checkpoint: the last message it published. */
interface RelayProgress {
  readonly lastPublished?: string;
}

@Injectable()
export class OutboxRelay {
  constructor(
    partitions: PartitionService,
    private readonly outbox: Outbox,
    private readonly events: EventLog,
  ) {
    // Replays the current list, then emits on every change ([] on shutdown too).
    partitions.owned$('outbox').subscribe((owned) => this.events.emit('partitions', { owned }));
  }

  @Cron(CronExpression.EVERY_SECOND, { name: 'outbox-relay', waitForCompletion: true })
  @ForEachOwnedPartition('outbox') // once per owned partition, concurrently
  async relay(partition: number, run: PartitionSection): Promise<void> {
    for (const message of this.outbox.pending(partition)) {
      if (run.signal.aborted || run.moveRequested.aborted) return; // lost, or moving to another replica: stop here
      this.outbox.publish(partition, message, run.token);
      this.events.emit('relayed', { partition, message: message.id, token: run.token });
      await run.checkpoint({ lastPublished: message.id } satisfies RelayProgress);
    }
  }

  @OnPartitionRecovery('outbox')
  resume(partition: number, interrupted: InterruptedSection, successor: RecoverySuccessor): void {
    const { lastPublished } = (interrupted.checkpoint ?? {}) as RelayProgress;
    this.events.emit('relay-recovery', { partition, holder: interrupted.holder, token: successor.token, lastPublished });
  }
}
