var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
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
import { LockService, WithLock } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { APP_CONFIG } from './config.js';
import { EventLog } from './events.js';
import { Ledger } from './ledger.js';
export const BATCH_SIZE = 6;
let SettlementBatch = class SettlementBatch {
    constructor(locks, events, ledger, config) {
        this.locks = locks;
        this.events = events;
        this.ledger = ledger;
        this.config = config;
    }
    /** Settles `batch`; `stop` (e.g. the caller's leadership signal) ends it early, leaving it for the next run. */
    async settle(batch, stop) {
        const lock = this.locks.current('settlement');
        // The repair (if any) ran just before this call; resume that batch after its last checkpoint.
        const left = lock.recovered?.checkpoint;
        const from = left?.batch === batch ? left.settled : 0;
        const token = lock.fencingToken;
        if (this.ledger.isSettled(batch))
            return this.events.emit('batch-skipped', { batch, token }); // ran to its end before
        this.events.emit('batch-started', { batch, token, from, total: BATCH_SIZE });
        // Stop as soon as the lock may no longer be exclusive, or the caller says so.
        const signal = stop ? AbortSignal.any([lock.signal, stop]) : lock.signal;
        for (let item = from + 1; item <= BATCH_SIZE; item++) {
            await sleep(this.config.stepMs, undefined, { signal }); // "settle" item number `item`
            await lock.checkpoint({ batch, settled: item, total: BATCH_SIZE });
            this.events.emit('batch-checkpoint', { batch, token, settled: item, total: BATCH_SIZE });
        }
        this.ledger.markSettled(batch, token);
        this.events.emit('batch-finished', { batch, token });
    }
    /** Runs on the next holder of "settlement", under the lock, when a holder stopped mid-batch. */
    async repairSettlement(interrupted) {
        const left = interrupted.checkpoint;
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
};
__decorate([
    WithLock('settlement', { recover: 'repairSettlement' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, AbortSignal]),
    __metadata("design:returntype", Promise)
], SettlementBatch.prototype, "settle", null);
SettlementBatch = __decorate([
    Injectable(),
    __param(3, Inject(APP_CONFIG)),
    __metadata("design:paramtypes", [LockService,
        EventLog,
        Ledger, Object])
], SettlementBatch);
export { SettlementBatch };
//# sourceMappingURL=settlement.batch.js.map