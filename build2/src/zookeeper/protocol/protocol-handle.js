import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { LeaderContact, routeOf, touchSlackMs } from '../leader-contact.js';
import { OPEN_ACL_UNSAFE } from '../types.js';
import { parseConnectString } from './host-list.js';
import { multiOp, multiReadOp } from './multi.js';
import { CreateFlag } from './op-codes.js';
import { addWatchOp, createOp, deleteOp, existsOp, getAclOp, getChildrenOp, getDataOp, getEphemeralsOp, removeWatchesOp, setAclOp, setDataOp, syncOp, whoAmIOp, } from './operations.js';
import { ProtocolSession } from './protocol-session.js';
import { parseSessionIdHex, sessionIdHex } from './records.js';
import { socketDialer } from './server-link.js';
import { WatchRegistry } from './watch-registry.js';
const NONODE = -101;
/** Codes that say the request's fate is unknown or the session is gone: not an answer the leader decided. */
const NOT_AN_ANSWER = new Set([-4, -7, -112, -116]);
/**
 * The TypeScript driver: a `SessionHandle` over `ProtocolSession`, with the chroot applied to
 * every path, the watches kept in a `WatchRegistry` (and set again after every reconnection),
 * and leader contact recorded from the exact times the handshake and each request were written.
 */
export class ProtocolHandle {
    constructor(options, events, resume) {
        this.watches = new WatchRegistry();
        const { hosts, chroot } = parseConnectString(options.connectString);
        this.chroot = chroot;
        this.contact = new LeaderContact(() => touchSlackMs(this.session.negotiatedTimeoutMs));
        this.session = new ProtocolSession({
            hosts,
            timeoutMs: options.sessionTimeoutMs,
            dialer: options.dialer ?? socketDialer(options.tls),
            resume: resume && { id: parseSessionIdHex(resume.id), password: Buffer.from(resume.password, 'hex') },
            random: options.random,
        }, {
            // The leader accepted (or revalidated) the session after the handshake was written.
            connected: (handshakeSentAt) => {
                this.contact.connected(handshakeSentAt);
                events.onConnected();
            },
            disconnected: () => events.onConnecting(),
            closed: (code) => {
                this.closedCode = code;
                this.watches.clear();
                events.onClosed(code);
            },
            notification: (type, serverPath) => this.watches.dispatch(type, this.fromServer(serverPath)),
            sent: (operation, sentAt) => this.contact.sent(routeOf(operation), sentAt),
            answered: (operation, sentAt, err) => {
                if (routeOf(operation) !== 'leader' || NOT_AN_ANSWER.has(err))
                    return;
                this.contact.answered(sentAt);
                events.onLeaderAnswer?.();
            },
            attemptFailed: (server, reason) => events.onAttemptFailed?.(server, reason),
            watchesToRestore: () => this.watches.toRestore((path) => this.toServer(path)),
        });
    }
    get sessionId() {
        return sessionIdHex(this.session.id);
    }
    /** Upper-case hex, as the C binding prints it: its parser misreads lower-case digits (`HexStringToPassword`). */
    get sessionPassword() {
        return this.session.passwordBytes.toString('hex').toUpperCase();
    }
    get negotiatedTimeoutMs() {
        return this.session.negotiatedTimeoutMs;
    }
    get lastContactAt() {
        return this.contact.provenAt;
    }
    get lastLeaderRequestAt() {
        return this.contact.lastLeaderSendAt;
    }
    get isClosed() {
        return this.closedCode !== undefined;
    }
    get watcherCount() {
        return this.watches.count;
    }
    close() {
        this.session.close();
    }
    addAuth(scheme, credentials) {
        return this.session.addAuth(scheme, Buffer.from(credentials, 'utf8'));
    }
    async create(path, data = null, mode = 'persistent') {
        return (await this.create2(path, data, mode)).path;
    }
    /** Creates a znode and answers with its stat too (`create2`): no read needed to learn its version or czxid. */
    async create2(path, data = null, mode = 'persistent', acl = OPEN_ACL_UNSAFE) {
        const created = await this.request(createOp(this.toServer(path), data ?? Buffer.alloc(0), acl, CreateFlag[mode]), path);
        return { path: this.fromServer(created.path), stat: created.stat };
    }
    getChildren(path, watcher) {
        return this.request(getChildrenOp(this.toServer(path), !!watcher), path, this.watchOnReply(path, watcher, 'child'));
    }
    getData(path, watcher) {
        return this.request(getDataOp(this.toServer(path), !!watcher), path, this.watchOnReply(path, watcher, 'data'));
    }
    async exists(path, watcher) {
        try {
            return await this.request(existsOp(this.toServer(path), !!watcher), path, this.watchOnReply(path, watcher, 'exists'));
        }
        catch (error) {
            // NONODE is an answer, not a failure; the server set a watch for the node's creation.
            if (ZooKeeperError.is(error, 'NONODE'))
                return null;
            throw error;
        }
    }
    /**
     * Registers `watcher` as the reply is read (`ProtocolSession.send`), where the server set its
     * watch: on success; for exists also on NONODE, as a watch for the node's creation.
     */
    watchOnReply(path, watcher, request) {
        if (!watcher)
            return undefined;
        return (err) => {
            if (err === 0)
                this.watches.add(request === 'child' ? 'child' : 'data', path, watcher);
            else if (err === NONODE && request === 'exists')
                this.watches.add('exist', path, watcher);
        };
    }
    setData(path, data, version) {
        return this.request(setDataOp(this.toServer(path), data, version), path);
    }
    delete(path, version = -1) {
        return this.request(deleteOp(this.toServer(path), version), path);
    }
    getAcl(path) {
        return this.request(getAclOp(this.toServer(path)), path);
    }
    async setAcl(path, acl, version = -1) {
        await this.request(setAclOp(this.toServer(path), acl, version), path);
    }
    async sync(path) {
        await this.request(syncOp(this.toServer(path)), path);
    }
    /** All or nothing: see `MultiResult` for what a failed transaction answers. */
    async multi(ops) {
        const results = await this.request(multiOp(ops.map((op) => ({ ...op, path: this.toServer(op.path) }))), ops[0]?.path);
        return results.map((result) => (result.type === 'create' ? { ...result, path: this.fromServer(result.path) } : result));
    }
    multiRead(ops) {
        return this.request(multiReadOp(ops.map((op) => ({ ...op, path: this.toServer(op.path) }))), ops[0]?.path);
    }
    /** A watch that fires on every change of `path` (or, `recursive`, of any node below it) until removed. */
    async addWatch(path, recursive, listener) {
        await this.request(addWatchOp(this.toServer(path), recursive), path, (err) => {
            if (err === 0)
                this.watches.addPersistent(path, recursive, listener);
        });
    }
    /**
     * Forgets `watcher` (or every watcher) of `path` of a kind; the server is asked to drop its
     * watch only when no other watcher of this session still needs it.
     */
    async removeWatches(path, type, watcher) {
        const kinds = type === 'any' ? ['data', 'child', 'persistent'] : type === 'data' ? ['data'] : ['child'];
        const { serverStillNeeded } = this.watches.remove(path, kinds, watcher);
        if (!serverStillNeeded)
            await this.request(removeWatchesOp(this.toServer(path), type), path);
    }
    /** Paths of the ephemeral nodes this session owns under `prefixPath`. */
    async getEphemerals(prefixPath = '/') {
        const paths = await this.request(getEphemeralsOp(this.toServer(prefixPath)), prefixPath);
        return paths.map((path) => this.fromServer(path));
    }
    /** The identities the server authenticated this session as. */
    whoAmI() {
        return this.request(whoAmIOp(), undefined);
    }
    request(op, displayPath, onReply) {
        return this.session.send(op, displayPath, onReply);
    }
    toServer(path) {
        if (!this.chroot)
            return path;
        return path === '/' ? this.chroot : this.chroot + path;
    }
    fromServer(path) {
        if (!this.chroot || !path.startsWith(this.chroot))
            return path;
        return path.length === this.chroot.length ? '/' : path.slice(this.chroot.length);
    }
}
//# sourceMappingURL=protocol-handle.js.map