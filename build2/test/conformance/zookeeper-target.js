/**
 * The real-server conformance target: one standalone ZooKeeper of our own (its container manager
 * tuned to sweep every 100 ms), and every scenario client behind a TcpProxy of its own, so that
 * its connection can be dropped and held without touching anyone else's. The proxies run in a
 * worker thread: see ProxyThread for why.
 */
import { randomUUID } from 'node:crypto';
import { isVirtualRuntimeInstalled } from '../../src/zookeeper/simulated/virtual-runtime.js';
import { ZooKeeperHandle } from '../../src/zookeeper/zookeeper-handle.js';
import { closeFromSecondClient } from '../support/expire-session.js';
import { ProxyThread } from '../support/proxy-thread.js';
import { withTimeout } from '../support/wait.js';
import { ZkServer } from '../support/zk-server.js';
import { EVENT_WAIT_MS, RecordingClient } from './recording-client.js';
const SESSION_TIMEOUT_MS = 6000;
/**
 * ZooKeeperServerMain reads these as JVM system properties, not from zoo.cfg (where an unknown
 * key `k` becomes the property `zookeeper.k`). The default sweep runs once a minute; the rate
 * limit (default 10,000 deletions a minute) would space deletions 6 ms apart.
 */
const CONTAINER_SWEEP_FLAGS = ['-Dznode.container.checkIntervalMs=100', '-Dznode.container.maxPerMinute=1000000'];
/** One client of a scenario, behind its own proxy. */
class ProxiedClient extends RecordingClient {
    constructor(proxy) {
        super();
        this.proxy = proxy;
        this.zk = new ZooKeeperHandle({ connectString: proxy.connectString, sessionTimeoutMs: SESSION_TIMEOUT_MS }, this.listeners);
    }
    /** Drops the connection and holds every reconnection attempt, unsent, until `release()`. */
    async hold() {
        const from = this.events.length;
        // cut() before reset(): the reconnection is accepted but parked, so that release() connects at
        // once (a refused one is retried only after a third of the session timeout).
        await this.proxy.cut();
        await this.proxy.reset();
        await this.next('connecting', from);
        return { release: () => this.proxy.restore() };
    }
    async close() {
        // From a macrotask: called inside the C client's processing (e.g. right after a reply, as
        // `await` resumes there), zookeeper_close only marks the handle and sends closeSession later.
        // From here it blocks until the server has answered, i.e. has ended the session.
        await new Promise((resolve) => setImmediate(resolve));
        this.zk.close();
    }
}
class ZookeeperEnv {
    constructor(server, admin, proxies, root) {
        this.server = server;
        this.admin = admin;
        this.proxies = proxies;
        this.root = root;
        this.clients = [];
    }
    async open(options = {}) {
        const client = new ProxiedClient(await this.proxies.proxy('127.0.0.1', this.server.port));
        this.clients.push(client);
        // Before the connection, as ZkSession does: the C client sends it right after the handshake.
        // Added later, it is sent only with the next request or ping (a third of the session timeout).
        const auth = options.auth && client.zk.addAuth(options.auth.scheme, options.auth.credentials);
        await Promise.all([client.next('connected', 0), auth]);
        return client;
    }
    async expire(scenarioClient) {
        const client = this.own(scenarioClient);
        const from = client.events.length;
        const held = await client.hold();
        await closeFromSecondClient(this.server.connectString, client.zk.sessionId, client.zk.sessionPassword, SESSION_TIMEOUT_MS);
        await held.release();
        await client.next('closed:-112', from);
    }
    async cutConnection(scenarioClient, whileCut) {
        const client = this.own(scenarioClient);
        const from = client.events.length;
        const held = await client.hold();
        try {
            await whileCut?.();
        }
        finally {
            await held.release();
        }
        await client.next('connected', from);
    }
    /**
     * A sweep takes a snapshot of the empty containers, then deletes them one by one. The first
     * sentinel, emptied now, is deleted by a sweep that started after this call; the second,
     * emptied once the first is gone, by a later sweep, which the sweep timer starts only after
     * the first has finished.
     */
    async sweepContainers() {
        for (let i = 0; i < 2; i++)
            await this.sweptSentinel();
    }
    async sweptSentinel() {
        const sentinel = `/conformance-sweep-${randomUUID()}`;
        await this.admin.create(sentinel, null, 'container');
        await this.admin.delete(await this.admin.create(`${sentinel}/child`));
        let deleted;
        const gone = new Promise((resolve) => (deleted = resolve));
        const watcher = (event) => { if (event.type === 'deleted')
            deleted(); };
        if ((await this.admin.exists(sentinel, watcher)) === null)
            return;
        await withTimeout(gone, EVENT_WAIT_MS, `the container sweep never removed ${sentinel}`);
    }
    async dispose() {
        for (const client of this.clients)
            await client.close();
        await Promise.all(this.clients.map((client) => client.proxy.close()));
    }
    own(client) {
        if (!(client instanceof ProxiedClient) || !this.clients.includes(client))
            throw new Error('not a client of this scenario');
        return client;
    }
}
export class ZookeeperTarget {
    constructor(server, admin, proxies) {
        this.server = server;
        this.admin = admin;
        this.proxies = proxies;
        this.name = 'zookeeper';
    }
    static async start() {
        const server = await ZkServer.start({ heap: '128m', jvmArgs: CONTAINER_SWEEP_FLAGS });
        try {
            let connected;
            const ready = new Promise((resolve) => (connected = resolve));
            const admin = new ZooKeeperHandle({ connectString: server.connectString, sessionTimeoutMs: SESSION_TIMEOUT_MS }, { onConnected: () => connected(), onConnecting: () => undefined, onClosed: () => undefined });
            await withTimeout(ready, EVENT_WAIT_MS, `no admin session to ${server.connectString}`);
            return new ZookeeperTarget(server, admin, ProxyThread.start());
        }
        catch (error) {
            await server.dispose();
            throw error;
        }
    }
    async run(scenario) {
        // The suite runs one target at a time; inside a simulation, this target's waits would be virtual.
        if (isVirtualRuntimeInstalled())
            throw new Error('the real-server target cannot run while a simulation has the virtual runtime installed');
        const env = new ZookeeperEnv(this.server, this.admin, this.proxies, `/conformance-${randomUUID()}`);
        await this.admin.create(env.root);
        try {
            return await scenario(env);
        }
        finally {
            await env.dispose();
        }
    }
    async close() {
        this.admin.close();
        await this.proxies.close();
        await this.server.dispose();
    }
}
//# sourceMappingURL=zookeeper-target.js.map