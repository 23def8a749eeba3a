/**
 * A TCP proxy on a free loopback port for fault injection between a client and a ZooKeeper server.
 *
 * - `cut()` is a network partition: bytes stop flowing both ways but no socket is closed, so the
 *   peers notice only through their own timeouts. Connections accepted while cut are held without
 *   dialing upstream (the client's handshake times out), and a side that closes during the cut is
 *   not propagated to the other side until `restore()`, as neither FIN nor RST crosses a partition.
 *   Like TCP after a partition heals, bytes sent during the cut are delivered on `restore()`.
 * - `reset()` closes every current connection at once: an immediate disconnect on both sides.
 * - `refuse(true)` resets every new connection at once (a server that is down), until `refuse(false)`.
 * - `cutReplies()` is half a partition: what the target sends is held (until `restore()`), what
 *   the client sends still goes through (e.g. a follower whose leader's proposals do not arrive).
 */
import net from 'node:net';
export class TcpProxy {
    constructor(server, targetHost, targetPort, port) {
        this.server = server;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.port = port;
        this.pairs = new Set();
        this.isCut = false;
        this.repliesCut = false;
        this.refusing = false;
        server.on('connection', (client) => this.accept(client));
    }
    static async start(targetHost, targetPort) {
        const server = net.createServer();
        await new Promise((resolve, reject) => {
            server.once('error', reject).listen(0, '127.0.0.1', () => resolve());
        });
        return new TcpProxy(server, targetHost, targetPort, server.address().port);
    }
    /** What a client connects to instead of the target. */
    get connectString() { return `127.0.0.1:${this.port}`; }
    /** Client connections currently open through the proxy. */
    get connectionCount() { return this.pairs.size; }
    get isCutOff() { return this.isCut; }
    /** Partition: stop forwarding in both directions, keep every socket open. */
    cut() {
        this.isCut = true;
        for (const pair of this.pairs) {
            pair.client.pause();
            pair.upstream?.pause();
        }
    }
    /** Half a partition: hold what the target sends; the client's bytes still reach the target. */
    cutReplies() {
        this.repliesCut = true;
        for (const pair of this.pairs)
            pair.upstream?.pause();
    }
    /** Heal the partition: deliver what was held, dial held connections, propagate held closes. */
    restore() {
        this.isCut = false;
        this.repliesCut = false;
        for (const pair of this.pairs) {
            if (pair.doomed) {
                this.destroy(pair);
                continue;
            }
            if (!pair.upstream)
                this.dial(pair);
            pair.client.resume();
            pair.upstream.resume();
        }
    }
    /** Close all current connections at once (both sides see an immediate disconnect). */
    reset() {
        for (const pair of this.pairs)
            this.destroy(pair);
    }
    /** Later connections dial `host:port` instead; current ones stay (`reset()` moves them: a client reconnecting to the same address reaches another server). */
    retarget(host, port) {
        this.targetHost = host;
        this.targetPort = port;
    }
    /** While on, new connections are closed as soon as they are accepted. */
    refuse(on = true) { this.refusing = on; }
    async close() {
        this.refusing = true;
        const closed = new Promise((resolve) => this.server.close(() => resolve()));
        this.reset();
        await closed;
    }
    accept(client) {
        client.on('error', () => undefined); // peers vanish all the time in fault tests
        if (this.refusing) {
            closeNow(client);
            return;
        }
        client.setNoDelay(true);
        const pair = { client };
        this.pairs.add(pair);
        client.on('close', () => this.sideClosed(pair));
        if (this.isCut)
            client.pause();
        else
            this.dial(pair);
    }
    dial(pair) {
        const upstream = net.connect({ host: this.targetHost, port: this.targetPort });
        pair.upstream = upstream;
        upstream.setNoDelay(true);
        upstream.on('error', () => undefined);
        upstream.on('close', () => this.sideClosed(pair));
        if (this.repliesCut)
            upstream.pause();
        this.forward(pair.client, upstream, false);
        this.forward(upstream, pair.client, true);
    }
    forward(from, to, replies) {
        from.on('data', (chunk) => {
            if (!to.write(chunk))
                from.pause(); // backpressure
        });
        to.on('drain', () => { if (!this.isCut && !(replies && this.repliesCut))
            from.resume(); });
        // A FIN must not cross a partition either: while cut, the close is held (`doomed`) and
        // delivered by restore().
        from.on('end', () => { if (!this.isCut)
            to.end(); });
    }
    sideClosed(pair) {
        if (!this.pairs.has(pair))
            return;
        if (this.isCut)
            pair.doomed = true; // the close cannot cross the partition yet
        else
            this.destroy(pair);
    }
    destroy(pair) {
        this.pairs.delete(pair);
        for (const socket of [pair.client, pair.upstream]) {
            if (socket && !socket.destroyed)
                closeNow(socket);
        }
    }
}
/**
 * Closes at once. Not `resetAndDestroy()`: on Node 20 a socket reset that way can leave a libuv
 * request pending forever, and the process then spins in its exit cleanup instead of exiting
 * (seen as test files that finish and never end). A FIN tells the ZooKeeper client just as fast
 * that the connection is gone.
 */
function closeNow(socket) {
    socket.destroy();
}
//# sourceMappingURL=tcp-proxy.js.map