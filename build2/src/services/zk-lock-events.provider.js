import { ZkLockEventHub, ZkLockEvents } from '../observability/zk-lock-events.js';
/**
 * One event hub per module instance: injectable as `ZkLockEvents` (read-only, public) and as
 * `ZkLockEventHub` (the sink the session, locks and elections emit into, internal).
 */
export const zkLockEventProviders = [
    { provide: ZkLockEventHub, useFactory: () => new ZkLockEventHub() },
    { provide: ZkLockEvents, useExisting: ZkLockEventHub },
];
//# sourceMappingURL=zk-lock-events.provider.js.map