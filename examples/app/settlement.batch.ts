/**
 * The settlement batch: settles `BATCH_SIZE` items one at a time under the cluster-wide lock
 * "settlement", recording its progress in the lock's ready znode after each item.
 *
 * `recover: 'repairSettlement'` makes the lock guarded: if a holder dies (or throws) half-way,
 * the next holder runs `repairSettlement()` with the dead holder's last checkpoint before its own
 * `settle()`, exactly once. Here the repair voids the item that was in flight, and `settle()`
 * resumes the same batch after the last item the dead holder recorded.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { LockService, WithLock, type InterruptedSection } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { APP_CONFIG, type AppConfig } from './config.js';
import { EventLog } from './events.js';
import { Ledger } from './ledger.js';

export const BATCH_SIZE = 6;

/** What `settle()` checkpoints after each item, and what the next holder's repair receives. */
export interface SettlementProgress {
  readonly batch: string;
  readonly settled: number;
  readonly total: number;
}

@Injectable()
export class SettlementBatch {
  constructor(
    private readonly locks: LockService,
    private readonly events: EventLog,
    private readonly ledger: Ledger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Settles `batch`; `stop` (e.g. the caller's leadership signal) ends it early, leaving it for the next run. */
  @WithLock('settlement', { recover: 'repairSettlement' })
  async settle(batch: string, stop?: AbortSignal): Promise<void> {
    const lock = this.locks.current('settlement')!;
    // The repair (if any) ran just before this call; resume that batch after its last checkpoint.
    const left = lock.recovered?.checkpoint as SettlementProgress | undefined;
    const from = left?.batch === batch ? left.settled : 0;
    const token = lock.fencingToken;
    if (this.ledger.isSettled(batch)) return this.events.emit('batch-skipped', { batch, token }); // ran to its end before
    this.events.emit('batch-started', { batch, token, from, total: BATCH_SIZE });
    // Stop as soon as the lock may no longer be exclusive, or the caller says so.
    const signal = stop ? AbortSignal.any([lock.signal, stop]) : lock.signal;
    for (let item = from + 1; item <= BATCH_SIZE; item++) {
      await sleep(this.config.stepMs, undefined, { signal }); // "settle" item number `item`
      await lock.checkpoint({ batch, settled: item, total: BATCH_SIZE } satisfies SettlementProgress);
      this.events.emit('batch-checkpoint', { batch, token, settled: item, total: BATCH_SIZE });
    }
    this.ledger.markSettled(batch, token);
    this.events.emit('batch-finished', { batch, token });
  }

  /** Runs on the next holder of "settlement", under the lock, when a holder stopped mid-batch. */
  async repairSettlement(interrupted: InterruptedSection): Promise<void> {
    const left = interrupted.checkpoint as SettlementProgress | undefined;
    // A real batch would void the half-applied item `left.settled + 1` here, using
    // `interrupted.token` to find the rows that holder wrote. It may run again if we die too:
    // keep it idempotent.
    this.events.emit('batch-recovered', {
      batch: left?.batch,
      holder: interrupted.holder,
      token: interrupted.token,
      settled: left?.settled ?? 0,
      total: left?.total ?? BATCH_SIZE,
    });
  }
}
