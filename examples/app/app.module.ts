import { Module, type DynamicModule } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TerminusModule } from '@nestjs/terminus';
import { ZkLockDashboardModule } from '../../src/dashboard/index.js'; // your app: from 'nestjs-zk-lock/dashboard'
import { ZkLockHealthIndicator } from '../../src/health/index.js'; // your app: from 'nestjs-zk-lock/health'
import { ZkLockModule } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { ClusterController } from './cluster.controller.js';
import { DashboardGuard } from './dashboard.guard.js';
import { APP_CONFIG, type AppConfig } from './config.js';
import { EventLog } from './events.js';
import { HealthController } from './health.controller.js';
import { Ledger } from './ledger.js';
import { OUTBOX_PARTITIONS, Outbox } from './outbox.js';
import { OutboxRelay } from './outbox.relay.js';
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
          // The outbox relay's partitions, spread over the replicas (outbox.relay.ts).
          partitions: [{ name: 'outbox', count: OUTBOX_PARTITIONS }],
          // On shutdown, a running batch gets this long to stop before its lock is released.
          drainTimeoutMs: 5_000,
          isGlobal: true, // the dashboard's module uses it too
        }),
        // The live page at http://127.0.0.1:<port>/zk-lock, for requests from this machine.
        ZkLockDashboardModule.forRoot({ path: 'zk-lock', guard: DashboardGuard }),
      ],
      controllers: [TransfersController, ClusterController, HealthController],
      providers: [{ provide: APP_CONFIG, useValue: config }, EventLog, Ledger, Outbox, OutboxRelay, SettlementBatch, SettlementScheduler, ZkLockHealthIndicator],
    };
  }
}
