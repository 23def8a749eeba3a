import { performance } from 'node:perf_hooks';
import { RecordTooLargeError } from '../../errors/record-too-large.error.js';
import { ZooKeeperProtocolError } from '../../errors/zookeeper-protocol.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { DEFAULT_MAX_FRAME_BYTES, FrameDecoder } from './frame-decoder.js';
import { HostList } from './host-list.js';
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';
import { OpCode, Xid } from './op-codes.js';
import { closeSessionOp, setWatchesOp, writeAuth } from './operations.js';
import { readConnectResponse, readReplyHeader, writeConnectRequest } from './records.js';
/** Codes of `ZooKeeperError` this layer produces itself. */
const CONNECTIONLOSS = -4;
const SESSIONEXPIRED = -112;
const AUTHFAILED = -115;
const CLOSING = -116;
/** Close codes of the handle events (the same as the `zookeeper` package's, see `native-binding.ts`). */
export const CLOSED_BY_US = 0;
export const CLOSED_EXPIRED = -112;
export const CLOSED_AUTH_FAILED = -113;
/** ZooKeeper's default `jute.maxbuffer` (1 MiB - 1): the server drops a connection that sends a larger packet. */
export const SERVER_MAX_PACKET_BYTES = 0xfffff;
/** How long `close()` waits for the server to confirm `closeSession` before cutting the link. */
const CLOSE_REPLY_BOUND_MS = 2000;
// Why this file is long: one connection's life (dial, handshake, pipelined requests matched to
// replies in order, pings, read timeout, failover to the next server) is one state machine over
// the fields below; what stands alone (framing, records, hosts, watches) is in its own file.
/**
 * One ZooKeeper session over a succession of connections, as the Java client keeps it
 * (`ClientCnxn`): dials the servers in turn, shakes hands with the last zxid it saw (a server
 * that is behind refuses it, and it tries the next), pipelines requests and matches each reply to
 * the oldest request in flight (the server answers a session's requests in order, so any other
 * xid means the stream is broken), pings after a third of the timeout without sending, and gives a
 * connection up after two thirds of it without hearing anything. The session ends when the
 * server reports it expired on a resume, when authentication fails, or when closed.
 */
export class ProtocolSession {
    constructor(options, events) {
        this.options = options;
        this.events = events;
        this.state = 'connecting';
        this.lastZxid = 0n;
        this.nextXid = 1;
        this.inFlight = [];
        /** Requests made while no connection was ready: sent after the next handshake, in order. */
        this.outbox = [];
        this.auths = [];
        this.handshakeSentAt = 0;
        this.lastSendAt = 0;
        this.lastHeardAt = 0;
        this.hosts = new HostList(options.hosts, options.random);
        this.sessionId = options.resume?.id ?? 0n;
        this.password = options.resume?.password ?? Buffer.alloc(16);
        this.timeout = options.timeoutMs;
        this.dialNext();
    }
    get id() {
        return this.sessionId;
    }
    get passwordBytes() {
        return this.password;
    }
    /** The timeout the server granted at the last handshake (the requested one before). */
    get negotiatedTimeoutMs() {
        return this.timeout;
    }
    get isConnected() {
        return this.state === 'connected';
    }
    get isClosed() {
        return this.state === 'closing' || this.state === 'closed';
    }
    /**
     * Sends `op` (now, or after the next handshake) and resolves with its reply. `onReply` runs
     * synchronously when the reply is read, with its error code: a watch must be registered then,
     * because the server may send the watched node's change right behind the reply, in the same
     * read, before any promise continuation could run.
     */
    send(op, displayPath = op.path, onReply) {
        return new Promise((resolve, reject) => {
            if (this.isClosed)
                return reject(new ZooKeeperError(CLOSING, op.name, displayPath, 'session closed'));
            const pending = { xid: this.xid(), op, displayPath, onReply, sentAt: 0, resolve: resolve, reject };
            if (this.state === 'connected')
                this.write(pending);
            else
                this.outbox.push(pending);
        });
    }
    /** Adds credentials: sent now if connected, and again first thing after every reconnection. */
    addAuth(scheme, credentials) {
        return new Promise((resolve, reject) => {
            if (this.isClosed)
                return reject(new ZooKeeperError(CLOSING, 'addAuth', undefined, 'session closed'));
            const pending = { xid: Xid.auth, op: authOperation, displayPath: scheme, sentAt: 0, resolve: () => resolve(), reject };
            const auth = { scheme, credentials, waiting: [pending] };
            this.auths.push(auth);
            if (this.state === 'connected')
                this.sendAuth(auth);
        });
    }
    /** Ends the session: `closeSession` when connected (its ephemeral nodes go at once), then the link. */
    close() {
        if (this.isClosed)
            return;
        const connected = this.state === 'connected';
        this.state = 'closing';
        this.clearTimer();
        this.failAll(this.outbox, CLOSING, 'session closed');
        if (connected && this.link) {
            // The reply to closeSession, or the server closing the link, ends it; the bound covers a server that does neither.
            const close = { xid: this.xid(), op: closeSessionOp(), displayPath: undefined, sentAt: 0, resolve: () => this.finish(CLOSED_BY_US), reject: () => this.finish(CLOSED_BY_US) };
            this.write(close);
            this.closeBound = setTimeout(() => this.finish(CLOSED_BY_US), Math.min(CLOSE_REPLY_BOUND_MS, this.timeout));
        }
        else {
            this.finish(CLOSED_BY_US);
        }
    }
    clearTimer() {
        clearTimeout(this.timer);
        clearImmediate(this.silenceCheck);
        this.timer = this.silenceCheck = undefined;
    }
    xid() {
        const xid = this.nextXid;
        this.nextXid = xid >= 0x7fffffff ? 1 : xid + 1;
        return xid;
    }
    dialNext() {
        const { address, delayMs } = this.hosts.take();
        this.state = 'connecting';
        this.timer = setTimeout(() => this.dial(address), delayMs);
    }
    dial(address) {
        const startedAt = performance.now();
        this.decoder = new FrameDecoder(this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
        let link;
        const current = () => link !== undefined && this.link === link;
        link = this.options.dialer(address, {
            opened: () => current() && this.handshake(),
            data: (chunk) => current() && this.receive(chunk),
            closed: (error) => current() && this.linkLost(error ?? new Error(`${address.host}:${address.port} closed the connection`)),
        });
        this.link = link;
        this.address = address;
        // Java's connectTimeout: the session timeout shared among the servers, for the link and the handshake.
        const connectTimeoutMs = this.timeout / this.hosts.size;
        this.timer = setTimeout(() => {
            if (current() && this.state !== 'connected')
                this.drop(new Error(`no session from ${address.host}:${address.port} within ${Math.round(connectTimeoutMs)} ms`));
        }, Math.max(0, startedAt + connectTimeoutMs - performance.now()));
    }
    handshake() {
        this.state = 'handshaking';
        const writer = new JuteWriter(64);
        writeConnectRequest(writer, { lastZxidSeen: this.lastZxid, timeoutMs: this.options.timeoutMs, sessionId: this.sessionId, password: this.password, readOnly: false });
        this.handshakeSentAt = performance.now();
        this.link.send(writer.frame());
    }
    receive(chunk) {
        this.lastHeardAt = performance.now();
        let frames;
        try {
            frames = this.decoder.push(chunk);
        }
        catch (error) {
            return this.drop(error);
        }
        for (const frame of frames) {
            if (!this.link)
                return; // an earlier frame ended the connection
            try {
                if (this.state === 'handshaking')
                    this.onConnectResponse(new JuteReader(frame, 'connect response'));
                else
                    this.onReply(new JuteReader(frame, 'reply'));
            }
            catch (error) {
                if (!(error instanceof ZooKeeperProtocolError))
                    throw error;
                return this.drop(error);
            }
        }
    }
    onConnectResponse(reader) {
        const response = readConnectResponse(reader);
        if (response.timeoutMs <= 0) {
            // The server no longer knows the session we asked to resume: it expired.
            return this.end(CLOSED_EXPIRED, SESSIONEXPIRED, 'session expired');
        }
        this.clearTimer();
        this.state = 'connected';
        this.sessionId = response.sessionId;
        this.password = response.password;
        this.timeout = response.timeoutMs;
        this.lastSendAt = this.lastHeardAt = performance.now();
        this.hosts.connected();
        // Credentials and watches first, as the Java client does (`primeConnection`): every request
        // after them is then made with the identity and watches the session had.
        for (const auth of this.auths)
            this.sendAuth(auth);
        const watches = this.events.watchesToRestore();
        if (Object.values(watches).some((paths) => paths.length > 0)) {
            this.write({ xid: Xid.setWatches, op: setWatchesOp(this.lastZxid, watches), displayPath: undefined, sentAt: 0, resolve: () => undefined, reject: () => undefined });
        }
        for (const pending of this.outbox.splice(0))
            this.write(pending);
        this.armTimer();
        this.events.connected(this.handshakeSentAt);
    }
    onReply(reader) {
        const header = readReplyHeader(reader);
        if (header.xid === Xid.ping)
            return;
        if (header.xid === Xid.notification)
            return this.onNotification(reader);
        if (header.xid === Xid.auth)
            return this.onAuthReply(header.err);
        const pending = this.inFlight.shift();
        if (!pending || pending.xid !== header.xid) {
            if (pending)
                this.inFlight.unshift(pending);
            reader.fail(`reply xid ${header.xid} while ${pending ? `xid ${pending.xid}` : 'no request'} was next`);
        }
        if (header.zxid > this.lastZxid)
            this.lastZxid = header.zxid;
        this.events.answered(pending.op.name, pending.sentAt, header.err);
        pending.onReply?.(header.err);
        if (header.err !== 0 && !pending.op.readsErrors) {
            return pending.reject(new ZooKeeperError(header.err, pending.op.name, pending.displayPath));
        }
        let value;
        try {
            value = pending.op.read(reader);
            reader.end();
        }
        catch (error) {
            // Its outcome is unknown to us now, as after a connection loss; the caller checks, as then.
            pending.reject(new ZooKeeperError(CONNECTIONLOSS, pending.op.name, pending.displayPath, error.message));
            throw error;
        }
        pending.resolve(value);
    }
    /** `WatcherEvent`: type, keeper state (always SyncConnected from a server), path. */
    onNotification(reader) {
        const type = reader.int();
        reader.int();
        const path = reader.ustring();
        reader.end();
        this.events.notification(type, path);
    }
    onAuthReply(err) {
        const auth = this.auths.find((a) => a.waiting.length > 0);
        const pending = auth?.waiting.shift();
        if (err === AUTHFAILED) {
            // The server closes a session whose credentials it refused (`ClientCnxn`: AUTH_FAILED is final).
            pending?.reject(new ZooKeeperError(err, 'addAuth', auth?.scheme));
            return this.end(CLOSED_AUTH_FAILED, AUTHFAILED, 'authentication failed');
        }
        if (err !== 0)
            pending?.reject(new ZooKeeperError(err, 'addAuth', auth?.scheme));
        else
            pending?.resolve(undefined);
    }
    sendAuth(auth) {
        const writer = new JuteWriter(64);
        writer.int(Xid.auth).int(OpCode.auth);
        writeAuth(writer, auth.scheme, auth.credentials);
        // Re-sent credentials after a reconnection have no caller waiting; their reply still comes in order.
        if (auth.waiting.length === 0)
            auth.waiting.push({ xid: Xid.auth, op: authOperation, displayPath: auth.scheme, sentAt: 0, resolve: () => undefined, reject: () => undefined });
        this.sendFrame(writer.frame());
    }
    write(pending) {
        const writer = new JuteWriter(64 + (pending.op.path?.length ?? 0));
        writer.int(pending.xid).int(pending.op.opCode);
        pending.op.write(writer);
        if (writer.length > SERVER_MAX_PACKET_BYTES) {
            // The server would drop the connection for it, and a caller retrying through connection loss would do it again.
            return pending.reject(new RecordTooLargeError(pending.displayPath ?? '(no path)', writer.length, SERVER_MAX_PACKET_BYTES));
        }
        pending.sentAt = performance.now();
        this.inFlight.push(pending);
        this.sendFrame(writer.frame());
        this.events.sent(pending.op.name, pending.sentAt);
    }
    sendFrame(frame) {
        this.lastSendAt = performance.now();
        this.link.send(frame);
    }
    /**
     * One timer while connected, for both duties of `ClientCnxn.SendThread`: a ping once a third of
     * the timeout passed without sending (half the read timeout), and giving the connection up once
     * two thirds passed without hearing anything. It re-arms itself for whichever comes first.
     */
    armTimer() {
        this.clearTimer();
        const readTimeoutMs = (this.timeout * 2) / 3;
        const now = performance.now();
        const silentFor = now - this.lastHeardAt;
        if (silentFor >= readTimeoutMs) {
            // After a stall of this process, timers run before the event loop reads the sockets: what
            // the server sent meanwhile may be waiting unread. Judge the silence after the next read.
            this.silenceCheck = setImmediate(() => {
                this.silenceCheck = undefined;
                const silent = performance.now() - this.lastHeardAt;
                if (silent < readTimeoutMs)
                    return this.armTimer();
                this.drop(new Error(`no answer from the server for ${Math.round(silent)} ms (read timeout ${Math.round(readTimeoutMs)} ms)`));
            });
            return;
        }
        const pingAt = this.lastSendAt + readTimeoutMs / 2;
        if (now >= pingAt) {
            const writer = new JuteWriter(8);
            writer.int(Xid.ping).int(OpCode.ping);
            this.sendFrame(writer.frame());
        }
        const next = Math.min(this.lastHeardAt + readTimeoutMs, this.lastSendAt + readTimeoutMs / 2);
        this.timer = setTimeout(() => this.armTimer(), Math.max(1, next - performance.now()));
    }
    /** Gives the current connection up (a protocol error, a timeout): the session goes on elsewhere. */
    drop(reason) {
        const link = this.link;
        this.linkLost(reason);
        link?.close();
    }
    linkLost(reason) {
        if (this.state === 'closing')
            return this.finish(CLOSED_BY_US);
        if (this.state === 'closed')
            return;
        const wasConnected = this.state === 'connected';
        this.link = undefined;
        this.clearTimer();
        this.failAll(this.inFlight, CONNECTIONLOSS, reason.message);
        this.failAll(this.outbox, CONNECTIONLOSS, reason.message);
        for (const auth of this.auths)
            auth.waiting.length = 0;
        if (wasConnected)
            this.events.disconnected(reason);
        else if (this.address)
            this.events.attemptFailed(`${this.address.host}:${this.address.port}`, reason);
        if (this.isClosed)
            return; // attemptFailed may have closed the session
        this.dialNext();
    }
    /** The session is over (expired, refused credentials): fail everything with `err`, close the link. */
    end(closeCode, err, why) {
        this.failAll(this.inFlight, err, why);
        this.failAll(this.outbox, err, why);
        for (const auth of this.auths)
            this.failAll(auth.waiting, err, why);
        this.state = 'closing';
        this.finish(closeCode);
    }
    finish(closeCode) {
        if (this.state === 'closed')
            return;
        this.state = 'closed';
        this.clearTimer();
        clearTimeout(this.closeBound);
        this.failAll(this.inFlight, CLOSING, 'session closed');
        const link = this.link;
        this.link = undefined;
        link?.close();
        this.events.closed(closeCode);
    }
    failAll(list, err, why) {
        for (const pending of list.splice(0))
            pending.reject(new ZooKeeperError(err, pending.op.name, pending.displayPath, why));
    }
}
/** Stands for an auth packet in errors; auth replies come with their own xid, outside the request order. */
const authOperation = { name: 'addAuth', opCode: OpCode.auth, path: undefined, write: () => undefined, read: () => undefined };
//# sourceMappingURL=protocol-session.js.map