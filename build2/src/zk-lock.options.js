import { DEFAULT_MAX_RECORD_BYTES } from './zookeeper/types.js';
export const ZK_LOCK_DEFAULTS = {
    root: '/zk-lock',
    sessionTimeoutMs: 30_000,
    connectTimeoutMs: 15_000,
    clientLogLevel: 'silent',
    driver: 'typescript',
    drainTimeoutMs: 10_000,
    maxRecordBytes: DEFAULT_MAX_RECORD_BYTES,
    election: { name: 'default', joinOnBootstrap: true, suspendPolicy: 'immediate', warmUpHandOver: true },
};
//# sourceMappingURL=zk-lock.options.js.map