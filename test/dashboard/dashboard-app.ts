import 'reflect-metadata';
import { Module, type INestApplication } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { DASHBOARD_SESSION } from '../../src/dashboard/dashboard.constants.js';
import { ZkLockDashboardModule } from '../../src/dashboard/index.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { FaultySession } from '../support/faulty-session.js';
import { sharedConnect } from '../lock/lock-test-kit.js';

/** An application with the dashboard (public) at `base`, its session wrapped (`DASHBOARD_SESSION`) so that its requests are counted or failed. */
export interface DashboardApp {
  readonly app: INestApplication;
  /** The dashboard's URL (`…/zk-lock`). */
  readonly base: string;
  /** The dashboard's session: the application's, wrapped. */
  readonly faulty: FaultySession;
  /** The application's session. */
  readonly session: ZkSession;
}

/** Starts it on loopback; `wrap` makes the dashboard's session (default: a plain FaultySession). */
export async function startDashboardApp(
  root: string,
  { connect = sharedConnect(), wrap = (session: ZkSession) => new FaultySession(session) }: { connect?: string; wrap?: (session: ZkSession) => FaultySession } = {},
): Promise<DashboardApp> {
  let faulty!: FaultySession;
  @Module({ imports: [ZkLockModule.forRoot({ connect, root, sessionTimeoutMs: 4000, isGlobal: true }), ZkLockDashboardModule.forRoot({ public: true })] })
  class AppModule {}
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(DASHBOARD_SESSION)
    .useFactory({ factory: (session: ZkSession) => (faulty = wrap(session)), inject: [ZkSession] })
    .compile();
  const app = moduleRef.createNestApplication(new ExpressAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/zk-lock`, faulty, session: app.get(ZkSession) };
}
