import { ZkLockError } from './zk-lock.error.js';
/**
 * A record (the data of a create or setData) is larger than the module's `maxRecordBytes`, so it
 * was refused before being sent. ZooKeeper answers a request larger than its `jute.maxbuffer`
 * (1 MiB by default) by dropping the connection, and a write retried through connection loss
 * would then wedge the session; keep records small, or raise both bounds together.
 */
export class RecordTooLargeError extends ZkLockError {
    constructor(path, size, maxBytes) {
        super('ZK_RECORD_TOO_LARGE', `Refused to write ${size} bytes to ${path}: records are limited to ${maxBytes} bytes (option maxRecordBytes). ` +
            'Store large data elsewhere and keep a reference in the znode.');
        this.path = path;
        this.size = size;
        this.maxBytes = maxBytes;
    }
}
//# sourceMappingURL=record-too-large.error.js.map