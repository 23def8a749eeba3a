import { ZkLockError } from './zk-lock.error.js';
/**
 * A frame from a ZooKeeper server could not be read: truncated, a length field that is negative
 * or larger than the frame bound, a reply whose xid is not the one expected next, or bytes left
 * over. The TypeScript client drops the connection on it and resumes the session on another
 * server: after one bad frame nothing later on that stream can be trusted.
 */
export class ZooKeeperProtocolError extends ZkLockError {
    constructor(
    /** What was being read, e.g. `getData reply` or `frame length`. */
    record, detail) {
        super('ZK_PROTOCOL', `Malformed ZooKeeper ${record}: ${detail}`);
        this.record = record;
    }
}
//# sourceMappingURL=zookeeper-protocol.error.js.map