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
 * `GET /status`: this replica's view of the cluster (who leads, the queue, the locks it holds).
 * `POST /batches {"batch":"b-1"}`: asks the leader's scheduler to run a settlement batch; a
 * follower answers 409 and names the leader.
 */
import { BadRequestException, Body, ConflictException, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { firstValueFrom, timeout } from 'rxjs';
import { LeaderService, LockService } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { APP_CONFIG } from './config.js';
import { Ledger } from './ledger.js';
import { SettlementScheduler } from './settlement.scheduler.js';
let ClusterController = class ClusterController {
    constructor(leader, locks, scheduler, config) {
        this.leader = leader;
        this.locks = locks;
        this.scheduler = scheduler;
        this.config = config;
    }
    async status() {
        return {
            replica: this.config.replica,
            isLeader: this.leader.isLeader,
            leaderToken: this.leader.election().token?.toString() ?? null,
            leader: await this.currentLeader(),
            participants: await this.leader.participants(),
            heldLocks: this.locks.heldLeases().map((lease) => ({ name: lease.name, fencingToken: lease.fencingToken.toString() })),
            pendingBatches: this.scheduler.pending,
        };
    }
    async requestBatch(body = {}) {
        const batch = body.batch ?? `settle-${new Date().toISOString().slice(11, 19).replaceAll(':', '')}`;
        if (!Ledger.isId(batch))
            throw new BadRequestException('batch: 1-64 letters, digits, _ or -');
        if (!this.scheduler.request(batch)) {
            throw new ConflictException({ message: 'not the leader: ask the leader', leader: await this.currentLeader() });
        }
        return { accepted: batch, replica: this.config.replica };
    }
    /** `leader$` replays the head of the election queue on subscription (one read). */
    currentLeader() {
        return firstValueFrom(this.leader.leader$.pipe(timeout(2_000)));
    }
};
__decorate([
    Get('status'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], ClusterController.prototype, "status", null);
__decorate([
    Post('batches'),
    HttpCode(202),
    __param(0, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], ClusterController.prototype, "requestBatch", null);
ClusterController = __decorate([
    Controller(),
    __param(3, Inject(APP_CONFIG)),
    __metadata("design:paramtypes", [LeaderService,
        LockService,
        SettlementScheduler, Object])
], ClusterController);
export { ClusterController };
//# sourceMappingURL=cluster.controller.js.map