/** The resolved `ZkLockDashboardOptions` (see `resolveDashboardOptions`). */
export const DASHBOARD_OPTIONS = Symbol('nestjs-zk-lock:dashboard-options');
/** The session the dashboard reads and watches through: the module's `ZkSession` (tests wrap it to inject faults). */
export const DASHBOARD_SESSION = Symbol('nestjs-zk-lock:dashboard-session');
//# sourceMappingURL=dashboard.constants.js.map