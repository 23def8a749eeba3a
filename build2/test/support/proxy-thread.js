/**
 * TcpProxies that run in a worker thread, so that they keep forwarding while this thread is
 * blocked. The C client blocks it in `zookeeper_close` for up to 1.5 s, waiting for the server's
 * answer to closeSession: through an in-process proxy that answer cannot arrive, so every close
 * would take the whole 1.5 s and reach the server only after the client gave up.
 */
import { Worker } from 'node:worker_threads';
import { withTimeout } from './wait.js';
export class ProxyThread {
    constructor(worker) {
        this.worker = worker;
        this.pending = new Map();
        this.seq = 0;
        worker.on('message', (reply) => {
            const request = this.pending.get(reply.seq);
            this.pending.delete(reply.seq);
            if (reply.error === undefined)
                request?.resolve(reply.value);
            else
                request?.reject(new Error(`proxy thread: ${reply.error}`));
        });
        worker.on('error', (error) => {
            for (const request of this.pending.values())
                request.reject(error);
            this.pending.clear();
        });
        worker.unref(); // a test that forgets close() still exits
    }
    static start() {
        return new ProxyThread(new Worker(new URL('./proxy-thread-worker.js', import.meta.url)));
    }
    /** A proxy on a free loopback port to `host:port`; see TcpProxy for what each method does. */
    async proxy(host, port) {
        const started = (await this.request('start', { host, port }));
        return new ThreadProxy(this, started.id, started.port);
    }
    /** @internal */
    request(op, fields = {}) {
        const seq = ++this.seq;
        const reply = new Promise((resolve, reject) => this.pending.set(seq, { resolve, reject }));
        this.worker.postMessage({ seq, op, ...fields });
        return withTimeout(reply, 10_000, `proxy thread did not answer '${op}'`);
    }
    async close() {
        await this.worker.terminate();
    }
}
export class ThreadProxy {
    constructor(thread, id, port) {
        this.thread = thread;
        this.id = id;
        this.port = port;
    }
    get connectString() { return `127.0.0.1:${this.port}`; }
    async cut() { await this.thread.request('cut', { id: this.id }); }
    async reset() { await this.thread.request('reset', { id: this.id }); }
    async restore() { await this.thread.request('restore', { id: this.id }); }
    async close() { await this.thread.request('close', { id: this.id }); }
}
//# sourceMappingURL=proxy-thread.js.map