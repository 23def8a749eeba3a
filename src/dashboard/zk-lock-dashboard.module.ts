import { Controller, Module, UseGuards, type DynamicModule } from '@nestjs/common';
import { DashboardRoutes } from './dashboard.controller.js';
import { ZkSession } from '../zookeeper/supervised-session.js';
import { DASHBOARD_OPTIONS, DASHBOARD_SESSION } from './dashboard.constants.js';
import { resolveDashboardOptions, type ZkLockDashboardOptions } from './dashboard.options.js';
import { DashboardState } from './dashboard-state.js';

/**
 * A live web page of every lock, election, read/write lock and semaphore under the module's root:
 * holders and leaders, waiters in queue order with identity, session and age, fencing tokens,
 * ready state, this process's session, and a timeline of events; with actions to ask a holder to
 * release and a leader to step down. Mounted into the application's own HTTP server (Express or
 * Fastify) at `path`, behind `guard`:
 *
 * ```ts
 * ZkLockDashboardModule.forRoot({ path: 'admin/zk-lock', guard: AdminGuard })
 * ```
 *
 * Needs `ZkLockModule` (global, or imported through `imports`). Its own entry point
 * (`nestjs-zk-lock/dashboard`): the main one stays free of it.
 */
@Module({})
export class ZkLockDashboardModule {
  static forRoot(options: ZkLockDashboardOptions): DynamicModule {
    const resolved = resolveDashboardOptions(options);
    // A class per mount: the path and the guard are class metadata in Nest.
    @Controller(resolved.path)
    @UseGuards(...(resolved.guard ? [resolved.guard] : []))
    class ZkLockDashboardController extends DashboardRoutes {}
    return {
      module: ZkLockDashboardModule,
      imports: options.imports ?? [],
      controllers: [ZkLockDashboardController],
      providers: [{ provide: DASHBOARD_OPTIONS, useValue: resolved }, { provide: DASHBOARD_SESSION, useExisting: ZkSession }, DashboardState],
    };
  }
}
