var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var ZkLockDashboardModule_1;
import { Controller, Module, UseGuards } from '@nestjs/common';
import { DashboardRoutes } from './dashboard.controller.js';
import { ZkSession } from '../zookeeper/supervised-session.js';
import { DASHBOARD_OPTIONS, DASHBOARD_SESSION } from './dashboard.constants.js';
import { resolveDashboardOptions } from './dashboard.options.js';
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
let ZkLockDashboardModule = ZkLockDashboardModule_1 = class ZkLockDashboardModule {
    static forRoot(options) {
        const resolved = resolveDashboardOptions(options);
        // A class per mount: the path and the guard are class metadata in Nest.
        let ZkLockDashboardController = class ZkLockDashboardController extends DashboardRoutes {
        };
        ZkLockDashboardController = __decorate([
            Controller(resolved.path),
            UseGuards(...(resolved.guard ? [resolved.guard] : []))
        ], ZkLockDashboardController);
        return {
            module: ZkLockDashboardModule_1,
            imports: options.imports ?? [],
            controllers: [ZkLockDashboardController],
            providers: [{ provide: DASHBOARD_OPTIONS, useValue: resolved }, { provide: DASHBOARD_SESSION, useExisting: ZkSession }, DashboardState],
        };
    }
};
ZkLockDashboardModule = ZkLockDashboardModule_1 = __decorate([
    Module({})
], ZkLockDashboardModule);
export { ZkLockDashboardModule };
//# sourceMappingURL=zk-lock-dashboard.module.js.map