var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
/**
 * The singleton scheduler: every replica has the cron job, only the leader of the election
 * "scheduler" runs it. Each tick runs the settlement batches requested on this replica
 * (`POST /batches` on the leader), as a guarded leader section: if this replica dies mid-tick,
 * the next leader's `@OnLeaderRecovery` handler learns which batch was running, before it
 * reports leadership, and queues that batch again.
 */
import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { LeaderOnly, LeaderService, OnLeaderRecovery } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { EventLog } from './events.js';
import { SettlementBatch } from './settlement.batch.js';
let SettlementScheduler = class SettlementScheduler {
    constructor(leader, batches, events) {
        this.leader = leader;
        this.batches = batches;
        this.events = events;
        this.queue = [];
        // Replays the current value, then emits on every change (false first, on shutdown too).
        leader.isLeader$.subscribe((value) => this.events.emit('leader', { value, token: leader.election().token }));
    }
    /** Queues a batch for the next tick; only the leader accepts (followers' ticks never run). */
    request(batch) {
        if (!this.leader.isLeader)
            return false;
        if (!this.queue.includes(batch))
            this.queue.push(batch);
        return true;
    }
    get pending() {
        return this.queue;
    }
    // waitForCompletion: a tick that runs a batch takes seconds; skip the ticks that fall meanwhile.
    async tick() {
        const section = this.leader.current();
        this.events.emit('tick', { token: section.token });
        while (this.queue.length > 0) {
            const batch = this.queue[0];
            await section.checkpoint({ running: batch });
            await this.batches.settle(batch, section.signal);
            this.queue.shift();
        }
    }
    requeueInterrupted(interrupted) {
        const { running } = (interrupted.checkpoint ?? {});
        this.events.emit('leader-recovery', { holder: interrupted.holder, token: interrupted.token, running });
        // The batch lock's own recovery repairs the half-done part when the batch runs again.
        if (running && !this.queue.includes(running))
            this.queue.unshift(running);
    }
};
__decorate([
    Cron(CronExpression.EVERY_SECOND, { name: 'settlement-scheduler', waitForCompletion: true }),
    LeaderOnly() // the module's default election, named "scheduler" in app.module.ts
    ,
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], SettlementScheduler.prototype, "tick", null);
__decorate([
    OnLeaderRecovery(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], SettlementScheduler.prototype, "requeueInterrupted", null);
SettlementScheduler = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [LeaderService,
        SettlementBatch,
        EventLog])
], SettlementScheduler);
export { SettlementScheduler };
//# sourceMappingURL=settlement.scheduler.js.map