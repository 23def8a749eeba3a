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
 * Issue 14, smaller items: a provider that uses `@LeaderOnly` or `@OnLeaderRecovery` in an
 * application without `ZkLockModule` fails at start-up with an error that names the module to
 * import and the provider that needs it (as `@WithLock` does), instead of Nest's generic
 * missing-dependency message or, for a recovery handler, of never being called.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { describe, it } from 'node:test';
import { LeaderOnly } from '../../src/decorators/leader-only.decorator.js';
import { OnLeaderRecovery } from '../../src/decorators/on-leader-recovery.decorator.js';
let NightlyReport = class NightlyReport {
    async run() {
        return 'ran';
    }
};
__decorate([
    LeaderOnly(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], NightlyReport.prototype, "run", null);
NightlyReport = __decorate([
    Injectable()
], NightlyReport);
let ReportRepair = class ReportRepair {
    constructor() {
        this.repaired = [];
    }
    async repair(interrupted) {
        this.repaired.push(interrupted);
    }
};
__decorate([
    OnLeaderRecovery('reports'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], ReportRepair.prototype, "repair", null);
ReportRepair = __decorate([
    Injectable()
], ReportRepair);
/** The start-up error of an application whose only provider is `provider`, without ZkLockModule. */
async function startUpError(provider) {
    let AppWithoutZkLock = class AppWithoutZkLock {
    };
    AppWithoutZkLock = __decorate([
        Module({ providers: [provider] })
    ], AppWithoutZkLock);
    return NestFactory.createApplicationContext(AppWithoutZkLock, { logger: false, abortOnError: false }).then((app) => app.close().then(() => undefined), (failure) => failure);
}
describe('leader decorators without ZkLockModule', () => {
    it('@LeaderOnly: fails at start-up naming ZkLockModule and the provider', async () => {
        const error = await startUpError(NightlyReport);
        assert.ok(error instanceof Error, 'the application started without ZkLockModule');
        assert.match(error.message, /ZkLockModule/, error.message);
        assert.match(error.message, /NightlyReport/, error.message);
    });
    it('@OnLeaderRecovery: fails at start-up naming ZkLockModule and the provider', async () => {
        const error = await startUpError(ReportRepair);
        assert.ok(error instanceof Error, 'the application started without ZkLockModule: its recovery handler would never run');
        assert.match(error.message, /ZkLockModule/, error.message);
        assert.match(error.message, /ReportRepair/, error.message);
    });
});
//# sourceMappingURL=leader-decorators-without-module.test.js.map