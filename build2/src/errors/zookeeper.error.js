import { ZkLockError } from './zk-lock.error.js';
/** ZooKeeper return codes (`ZOO_ERRORS` of the C client) by name. */
export const ZOOKEEPER_ERROR_CODES = {
    SYSTEMERROR: -1,
    RUNTIMEINCONSISTENCY: -2,
    DATAINCONSISTENCY: -3,
    CONNECTIONLOSS: -4,
    MARSHALLINGERROR: -5,
    UNIMPLEMENTED: -6,
    OPERATIONTIMEOUT: -7,
    BADARGUMENTS: -8,
    INVALIDSTATE: -9,
    NEWCONFIGNOQUORUM: -13,
    RECONFIGINPROGRESS: -14,
    SSLCONNECTIONERROR: -15,
    APIERROR: -100,
    NONODE: -101,
    NOAUTH: -102,
    BADVERSION: -103,
    NOCHILDRENFOREPHEMERALS: -108,
    NODEEXISTS: -110,
    NOTEMPTY: -111,
    SESSIONEXPIRED: -112,
    INVALIDCALLBACK: -113,
    INVALIDACL: -114,
    AUTHFAILED: -115,
    CLOSING: -116,
    NOTHING: -117,
    SESSIONMOVED: -118,
    NOTREADONLY: -119,
    EPHEMERALONLOCALSESSION: -120,
    NOWATCHER: -121,
    RECONFIGDISABLED: -123,
    SESSIONCLOSEDREQUIRESASLAUTH: -124,
    THROTTLEDOP: -127,
};
const NAMES_BY_RC = new Map(Object.entries(ZOOKEEPER_ERROR_CODES).map(([name, rc]) => [rc, name]));
/**
 * Codes after which the outcome of a request is unknown and the session may still be alive:
 * the request may or may not have been applied by the server. SESSIONMOVED is one: a request that
 * reached the leader through a server the session has since left is refused, but the session
 * lives on through the new server, so trying again there is right (it is not "session gone").
 */
const CONNECTION_CODES = new Set([
    'CONNECTIONLOSS',
    'OPERATIONTIMEOUT',
    'SESSIONMOVED',
]);
/** Codes after which this session is gone for good (a new one must be created). */
const SESSION_GONE_CODES = new Set([
    'SESSIONEXPIRED',
    'AUTHFAILED',
    'CLOSING',
    'INVALIDSTATE',
]);
/**
 * A ZooKeeper request failed with a return code. The `zookeeper` package reports these as
 * strings (`"-101 no node"`) or bare numbers; the facade turns them into this one class with a
 * stable `zkCode` name, the numeric `rc`, the operation and the path.
 */
export class ZooKeeperError extends ZkLockError {
    constructor(rc, operation, path, detail) {
        const zkCode = NAMES_BY_RC.get(rc) ?? 'UNKNOWN';
        const where = path === undefined ? '' : ` on ${path}`;
        super(`ZK_${zkCode}`, `ZooKeeper ${operation}${where} failed: ${zkCode} (${rc}${detail ? `, ${detail}` : ''})`);
        this.rc = rc;
        this.operation = operation;
        this.path = path;
        this.zkCode = zkCode;
    }
    /** The server may or may not have applied the request; the session may still be alive. */
    get isConnectionError() {
        return CONNECTION_CODES.has(this.zkCode);
    }
    /** The session that sent the request is gone; nothing more can be done with it. */
    get isSessionGone() {
        return SESSION_GONE_CODES.has(this.zkCode);
    }
    /**
     * True when `error` is a connection error or a gone session: it says nothing about the data, so
     * the caller looks again once connected (on the same session, or on a new one).
     */
    static isRetryable(error) {
        return error instanceof ZooKeeperError && (error.isConnectionError || error.isSessionGone);
    }
    /** True when `error` is a ZooKeeperError with one of the given codes. */
    static is(error, ...codes) {
        return error instanceof ZooKeeperError && codes.includes(error.zkCode);
    }
    /**
     * Parses the package's error shapes: a numeric rc, a string `"-101 no node"`, or an Error whose
     * message starts with the rc. Anything else becomes rc 0 / UNKNOWN with the text kept.
     */
    static from(raw, operation, path) {
        if (raw instanceof ZooKeeperError)
            return raw;
        if (typeof raw === 'number')
            return new ZooKeeperError(raw, operation, path);
        const text = raw instanceof Error ? raw.message : String(raw);
        const match = /^\s*(-?\d+)\b\s*(.*)$/.exec(text);
        if (match)
            return new ZooKeeperError(Number(match[1]), operation, path, match[2] || undefined);
        return new ZooKeeperError(0, operation, path, text);
    }
}
//# sourceMappingURL=zookeeper.error.js.map