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
 * `POST /transfers {"account":"alice","amount":10}` on any replica: the transfer runs while this
 * replica holds the cluster-wide lock `account:<id>` (fair: concurrent transfers to one account
 * are served in arrival order, whichever replica they hit), and writes the ledger with the lock's
 * fencing token. The response says which replica served it and under which token.
 * `GET /accounts/:id` reads an account.
 */
import { BadRequestException, Body, Controller, Get, HttpCode, Inject, Param, Post, ServiceUnavailableException } from '@nestjs/common';
import { LockService, LockTimeoutError } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { APP_CONFIG } from './config.js';
import { EventLog, now } from './events.js';
import { Ledger } from './ledger.js';
let TransfersController = class TransfersController {
    constructor(locks, ledger, events, config) {
        this.locks = locks;
        this.ledger = ledger;
        this.events = events;
        this.config = config;
    }
    async transfer(body = {}) {
        const { account, amount } = body;
        if (!Ledger.isId(account))
            throw new BadRequestException('account: 1-64 letters, digits, _ or -');
        if (typeof amount !== 'number' || !Number.isFinite(amount))
            throw new BadRequestException('amount: a number');
        const requested = now();
        try {
            return await this.locks.withLock(`account:${account}`, async (lock) => {
                const start = now();
                const after = await this.ledger.apply(account, amount, lock.fencingToken, lock.signal);
                this.events.emit('transfer', { account, amount, token: lock.fencingToken, start, end: now(), balance: after.balance });
                return {
                    replica: this.config.replica,
                    account,
                    amount,
                    balance: after.balance,
                    fencingToken: lock.fencingToken.toString(),
                    waitedMs: Math.round(start - requested),
                };
            }, { waitMs: 10_000 });
        }
        catch (error) {
            if (error instanceof LockTimeoutError)
                throw new ServiceUnavailableException(`account ${account} is busy, try again`);
            throw error;
        }
    }
    account(id) {
        if (!Ledger.isId(id))
            throw new BadRequestException('account: 1-64 letters, digits, _ or -');
        return this.ledger.read(id);
    }
};
__decorate([
    Post('transfers'),
    HttpCode(200),
    __param(0, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], TransfersController.prototype, "transfer", null);
__decorate([
    Get('accounts/:id'),
    __param(0, Param('id')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Object)
], TransfersController.prototype, "account", null);
TransfersController = __decorate([
    Controller(),
    __param(3, Inject(APP_CONFIG)),
    __metadata("design:paramtypes", [LockService,
        Ledger,
        EventLog, Object])
], TransfersController);
export { TransfersController };
//# sourceMappingURL=transfers.controller.js.map