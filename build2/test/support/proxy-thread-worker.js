/**
 * The worker side of `ProxyThread`: runs its TcpProxies and answers each request in order.
 */
import { parentPort } from 'node:worker_threads';
import { TcpProxy } from './tcp-proxy.js';
const proxies = new Map();
let nextId = 1;
async function handle(request) {
    if (request.op === 'start') {
        const proxy = await TcpProxy.start(request.host, request.port);
        const id = nextId++;
        proxies.set(id, proxy);
        return { id, port: proxy.port };
    }
    const proxy = proxies.get(request.id);
    if (!proxy)
        throw new Error(`no proxy ${request.id}`);
    switch (request.op) {
        case 'cut':
            proxy.cut();
            return undefined;
        case 'reset':
            proxy.reset();
            return undefined;
        case 'restore':
            proxy.restore();
            return undefined;
        case 'close':
            proxies.delete(request.id);
            await proxy.close();
            return undefined;
    }
}
parentPort.on('message', (request) => {
    handle(request).then((value) => parentPort.postMessage({ seq: request.seq, value }), (error) => parentPort.postMessage({ seq: request.seq, error: String(error) }));
});
//# sourceMappingURL=proxy-thread-worker.js.map