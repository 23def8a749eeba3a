import { performance } from 'node:perf_hooks';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { nativeConnectString, shuffleHosts } from './connect-string.js';
import { LeaderContact, routeOf, touchSlackMs } from './leader-contact.js';
import { loadNativeZooKeeper, NATIVE_SESSION_EVENT, } from './native-binding.js';
const CREATE_FLAGS = {
    persistent: 0,
    ephemeral: 1,
    persistent_sequential: 2,
    ephemeral_sequential: 3,
    container: 4,
};
const WATCH_EVENT_TYPES = {
    1: 'created',
    2: 'deleted',
    3: 'changed',
    4: 'child',
    [-2]: 'notwatching',
};
const EMPTY = Buffer.alloc(0);
/** Return codes that say nothing reached the server (or came back from it). */
const RC_CONNECTIONLOSS = -4;
const RC_OPERATIONTIMEOUT = -7;
const RC_SESSIONEXPIRED = -112;
const RC_CLOSING = -116;
const RC_NONODE = -101;
const LOG_LEVELS = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };
export function toStat(raw) {
    return {
        // zxids arrive as doubles: exact up to 2^53 (epoch < 2^21), which no real ensemble reaches.
        czxid: BigInt(raw.czxid),
        mzxid: BigInt(raw.mzxid),
        pzxid: BigInt(raw.pzxid),
        ctime: raw.ctime.getTime(),
        mtime: raw.mtime.getTime(),
        version: raw.version,
        cversion: raw.cversion,
        aversion: raw.aversion,
        ephemeralOwner: raw.ephemeralOwner,
        dataLength: raw.dataLength,
        numChildren: raw.numChildren,
    };
}
// Why this file is long: one promise method per request of the native binding, each with its own
// callback shape and the error it must carry (operation and path); splitting them by kind would
// only scatter the one convention they share.
/**
 * A typed promise facade over one handle of the `zookeeper` package, i.e. one ZooKeeper
 * session. When that session expires the handle is dead; `ZkSession` replaces it.
 *
 * It records when the ZooKeeper leader is last proven to have touched this session
 * (`lastContactAt`, monotonic ms; see `LeaderContact` for which replies prove it), which bounds
 * when the leader may expire it.
 */
export class ZooKeeperHandle {
    constructor(options, events, resume) {
        this.events = events;
        /** When the current connection attempt began: the handle's creation, or the last disconnection. */
        this.attemptAt = performance.now();
        this.watches = 0;
        this.contact = new LeaderContact(() => touchSlackMs(this.handle.timeout > 0 ? this.handle.timeout : options.sessionTimeoutMs));
        const ZooKeeper = options.binding ?? loadNativeZooKeeper();
        const config = {
            // Hosts shuffled here rather than by the C client: with a random host order it reads
            // /dev/urandom again on every reply (about 8% of a lock cycle's client CPU), and the flag is
            // process-wide. Spreading clients over the ensemble only needs one shuffle per session.
            connect: nativeConnectString(shuffleHosts(options.connectString)),
            timeout: options.sessionTimeoutMs,
            debug_level: LOG_LEVELS[options.clientLogLevel ?? 'silent'],
            host_order_deterministic: true,
        };
        if (resume) {
            config.client_id = resume.id;
            config.client_password = resume.password;
        }
        this.handle = new ZooKeeper(config);
        this.native = this.handle.native;
        this.handle.on('connect', () => {
            // The leader accepted (or revalidated) the session after it received the handshake, whose
            // send time the C client does not tell. The attempt's start precedes it for certain; "now"
            // does not, when this process stalled after the server answered, and every deadline measured
            // from it would be late by that stall.
            this.contact.connected(this.attemptAt);
            events.onConnected();
        });
        this.handle.on('connecting', () => {
            this.attemptAt = performance.now();
            events.onConnecting();
        });
        this.handle.on('close', (_handle, code) => {
            this.closedCode = code;
            events.onClosed(code);
        });
        this.handle.init({});
    }
    /** Session id as hex, as ZooKeeper prints it and as `ZkStat.ephemeralOwner` carries it. */
    get sessionId() {
        return this.handle.client_id;
    }
    /** Session password as hex: with the id, enough to resume (or, in tests, to expire) it. */
    get sessionPassword() {
        return this.handle.client_password;
    }
    /** The session timeout the server granted (it clamps the request to its min/max). */
    get negotiatedTimeoutMs() {
        return this.handle.timeout;
    }
    /** Monotonic ms: the leader touched this session at this time or later (`LeaderContact`). */
    get lastContactAt() {
        return this.contact.provenAt;
    }
    /** Monotonic ms: when the latest request that goes through the leader (a write, a sync) was sent. */
    get lastLeaderRequestAt() {
        return this.contact.lastLeaderSendAt;
    }
    get isClosed() {
        return this.closedCode !== undefined;
    }
    /**
     * Watches this session has set that have not fired yet: the C client keeps each one (and its
     * callback) until its node event arrives. The package has no removeWatches, so a watch whose
     * waiter gave up stays counted until its node changes or goes, or the session ends.
     */
    get watcherCount() {
        return this.isClosed ? 0 : this.watches;
    }
    close() {
        if (this.closedCode === undefined)
            this.handle.close();
    }
    create(path, data = null, mode = 'persistent') {
        return this.request('create', path, (done) => this.native.a_create(path, data ?? EMPTY, CREATE_FLAGS[mode], (rc, err, created) => done(rc, err, created)));
    }
    getChildren(path, watcher) {
        return this.request('getChildren', path, (done) => {
            const watch = watcher && this.track(watcher);
            const cb = (rc, err, children, stat) => {
                if (rc === 0)
                    watch?.registered(); // the C client keeps a child watch only on success
                done(rc, err, rc === 0 ? { children: children ?? [], stat: toStat(stat) } : undefined);
            };
            return watch ? this.native.aw_get_children2(path, watch.callback, cb) : this.native.a_get_children2(path, false, cb);
        });
    }
    getData(path, watcher) {
        return this.request('getData', path, (done) => {
            const watch = watcher && this.track(watcher);
            const cb = (rc, err, stat, data) => {
                if (rc === 0)
                    watch?.registered(); // the C client keeps a data watch only on success
                done(rc, err, rc === 0 ? { data: data ?? EMPTY, stat: toStat(stat) } : undefined);
            };
            return watch ? this.native.aw_get(path, watch.callback, cb) : this.native.a_get(path, false, cb);
        });
    }
    async exists(path, watcher) {
        try {
            return await this.request('exists', path, (done) => {
                const watch = watcher && this.track(watcher);
                const cb = (rc, err, stat) => {
                    if (rc === 0 || rc === RC_NONODE)
                        watch?.registered(); // an exists watch waits for a creation too
                    done(rc, err, rc === 0 ? toStat(stat) : null);
                };
                return watch ? this.native.aw_exists(path, watch.callback, cb) : this.native.a_exists(path, false, cb);
            });
        }
        catch (error) {
            // NONODE is an answer, not a failure; a watch was still registered for its creation.
            if (ZooKeeperError.is(error, 'NONODE'))
                return null;
            throw error;
        }
    }
    setData(path, data, version) {
        return this.request('setData', path, (done) => this.native.a_set(path, data, version, (rc, err, stat) => done(rc, err, rc === 0 ? toStat(stat) : undefined)));
    }
    delete(path, version = -1) {
        return this.request('delete', path, (done) => this.native.a_delete_(path, version, (rc, err) => done(rc, err, undefined)));
    }
    /**
     * Careful: when get_acl fails (NONODE, NOAUTH...), the package's binding frees a NULL ACL vector
     * and the process dies with SIGSEGV. Only ask for nodes that exist and that this session may
     * read; the recipes never call it.
     */
    getAcl(path) {
        return this.request('getAcl', path, (done) => this.native.a_get_acl(path, (rc, err, acl, stat) => done(rc, err, rc === 0 ? { acl: (acl ?? []).map((a) => ({ perms: a.perms, scheme: a.scheme, id: a.auth })), stat: toStat(stat) } : undefined)));
    }
    setAcl(path, acl, version = -1) {
        const native = acl.map((a) => ({ perm: a.perms, scheme: a.scheme, auth: a.id }));
        return this.request('setAcl', path, (done) => this.native.a_set_acl(path, version, native, (rc, err) => done(rc, err, undefined)));
    }
    sync(path) {
        return this.request('sync', path, (done) => this.native.a_sync(path, (rc, err) => done(rc, err, undefined)));
    }
    /** Adds credentials to the session; the C client re-sends them after every reconnection. */
    addAuth(scheme, credentials) {
        return this.request('addAuth', undefined, (done) => this.native.add_auth(scheme, credentials, (rc, err) => done(rc, err, undefined)));
    }
    track(watcher) {
        let state = 'sent';
        return {
            callback: (type, _state, path) => {
                // The C client also hands every registered watcher each session event (connecting,
                // connected) without consuming the watch: those are not node events.
                if (type === NATIVE_SESSION_EVENT)
                    return;
                if (state === 'held')
                    this.watches -= 1;
                state = 'fired';
                const eventType = WATCH_EVENT_TYPES[type];
                if (eventType)
                    watcher({ type: eventType, path });
            },
            registered: () => {
                if (state !== 'sent')
                    return;
                state = 'held';
                this.watches += 1;
            },
        };
    }
    /**
     * Runs one native request. `send` returns the synchronous rc of the C call (negative when the
     * request was not even queued, e.g. INVALIDSTATE on a dead handle) and calls `done` later.
     */
    request(operation, path, send) {
        const route = routeOf(operation);
        return new Promise((resolve, reject) => {
            const sentAt = performance.now();
            this.contact.sent(route, sentAt);
            let rc;
            try {
                rc = send((code, err, value) => {
                    // An answer, as opposed to a failure of the connection or the session, is evidence.
                    if (route === 'leader' && code !== RC_CONNECTIONLOSS && code !== RC_OPERATIONTIMEOUT && code !== RC_SESSIONEXPIRED && code !== RC_CLOSING) {
                        this.contact.answered(sentAt);
                        this.events.onLeaderAnswer?.();
                    }
                    if (code === 0)
                        resolve(value);
                    else
                        reject(new ZooKeeperError(code, operation, path, err));
                });
            }
            catch (error) {
                reject(ZooKeeperError.from(error, operation, path));
                return;
            }
            if (rc !== 0)
                reject(new ZooKeeperError(rc, operation, path));
        });
    }
}
//# sourceMappingURL=zookeeper-handle.js.map