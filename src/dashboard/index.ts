// The `nestjs-zk-lock/dashboard` entry point: a web page mounted into the application's HTTP
// server, which the main entry point does not need.
export { ZkLockDashboardModule } from './zk-lock-dashboard.module.js';
export type { ZkLockDashboardOptions } from './dashboard.options.js';
export type { DashboardLock, DashboardMessage, DashboardView } from './dashboard-view.js';
export type { TimelineEntry } from './timeline.js';
export { CONFIRM_HEADER } from './dashboard.controller.js';
