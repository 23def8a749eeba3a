var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var AppModule_1;
import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TerminusModule } from '@nestjs/terminus';
import { ZkLockDashboardModule } from '../../src/dashboard/index.js'; // your app: from 'nestjs-zk-lock/dashboard'
import { ZkLockHealthIndicator } from '../../src/health/index.js'; // your app: from 'nestjs-zk-lock/health'
import { ZkLockModule } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { ClusterController } from './cluster.controller.js';
import { DashboardGuard } from './dashboard.guard.js';
import { APP_CONFIG } from './config.js';
import { EventLog } from './events.js';
import { HealthController } from './health.controller.js';
import { Ledger } from './ledger.js';
import { SettlementBatch } from './settlement.batch.js';
import { SettlementScheduler } from './settlement.scheduler.js';
import { TransfersController } from './transfers.controller.js';
let AppModule = AppModule_1 = class AppModule {
    static register(config) {
        return {
            module: AppModule_1,
            imports: [
                ScheduleModule.forRoot(),
                TerminusModule.forRoot({ logger: false }),
                ZkLockModule.forRoot({
                    connect: config.connect,
                    root: config.root,
                    identity: config.replica,
                    sessionTimeoutMs: config.sessionTimeoutMs,
                    // The default election, which @LeaderOnly() and @OnLeaderRecovery() refer to.
                    election: { name: 'scheduler' },
                    // On shutdown, a running batch gets this long to stop before its lock is released.
                    drainTimeoutMs: 5_000,
                    isGlobal: true, // the dashboard's module uses it too
                }),
                // The live page at http://127.0.0.1:<port>/zk-lock, for requests from this machine.
                ZkLockDashboardModule.forRoot({ path: 'zk-lock', guard: DashboardGuard }),
            ],
            controllers: [TransfersController, ClusterController, HealthController],
            providers: [{ provide: APP_CONFIG, useValue: config }, EventLog, Ledger, SettlementBatch, SettlementScheduler, ZkLockHealthIndicator],
        };
    }
};
AppModule = AppModule_1 = __decorate([
    Module({})
], AppModule);
export { AppModule };
//# sourceMappingURL=app.module.js.map