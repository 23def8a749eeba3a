import { Module, type DynamicModule } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TerminusModule } from '@nestjs/terminus';
import { ZkLockHealthIndicator } from '../../src/health/index.js'; // your app: from 'nestjs-zk-lock/health'
import { ZkLockModule } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { ClusterController } from './cluster.controller.js';
import { APP_CONFIG, type AppConfig } from './config.js';
import { EventLog } from './events.js';
import { HealthController } from './health.controller.js';
import { Ledger } from './ledger.js';
import { SettlementBatch } from './settlement.batch.js';
import { SettlementScheduler } from './settlement.scheduler.js';
import { TransfersController } from './transfers.controller.js';

@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
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
        }),
      ],
      controllers: [TransfersController, ClusterController, HealthController],
      providers: [{ provide: APP_CONFIG, useValue: config }, EventLog, Ledger, SettlementBatch, SettlementScheduler, ZkLockHealthIndicator],
    };
  }
}
