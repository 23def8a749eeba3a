/** The resolved `ZkLockDashboardOptions` (see `resolveDashboardOptions`). */
export const DASHBOARD_OPTIONS = Symbol('nestjs-zk-lock:dashboard-options');
