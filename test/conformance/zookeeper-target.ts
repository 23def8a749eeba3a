/**
 * The real-server conformance target: one standalone ZooKeeper of our own (its container manager
 * tuned to sweep every 100 ms), and every scenario client behind a TcpProxy of its own, so that
 * its connection can be dropped and held without touching anyone else's. The proxies run in a
 * worker thread: see ProxyThread for why.
 */
import { randomUUID } from 'node:crypto';
import { isVirtualRuntimeInstalled } from '../../src/zookeeper/simulated/virtual-runtime.js';
import { openSessionHandle, type ZkDriver } from '../../src/zookeeper/open-session-handle.js';
import type { SessionHandle } from '../../src/zookeeper/session-handle.js';
import type { Watcher } from '../../src/zookeeper/types.js';
import { closeFromSecondClient } from '../support/expire-session.js';
import { ProxyThread, type ThreadProxy } from '../support/proxy-thread.js';
import { withTimeout } from '../support/wait.js';
import { ZkServer } from '../support/zk-server.js';
import { EVENT_WAIT_MS, RecordingClient } from './recording-client.js';
import type { ConformanceTarget, ScenarioClient, ScenarioEnv } from './target.js';

const SESSION_TIMEOUT_MS = 6000;

/**
 * ZooKeeperServerMain reads these as JVM system properties, not from zoo.cfg (where an unknown
 * key `k` becomes the property `zookeeper.k`). The default sweep runs once a minute; the rate
 * limit (default 10,000 deletions a minute) would space deletions 6 ms apart.
 */
const CONTAINER_SWEEP_FLAGS = ['-Dznode.container.checkIntervalMs=100', '-Dznode.container.maxPerMinute=1000000'];

/** One client of a scenario, behind its own proxy, through `driver`. */
class ProxiedClient extends RecordingClient {
  readonly zk: SessionHandle;

  constructor(
    readonly proxy: ThreadProxy,
    driver: ZkDriver,
  ) {
    super();
    this.zk = openSessionHandle({ connectString: proxy.connectString, sessionTimeoutMs: SESSION_TIMEOUT_MS, driver }, this.listeners);
  }

  /** Drops the connection and holds every reconnection attempt, unsent, until `release()`. */
  async hold(): Promise<{ release: () => Promise<void> }> {
    const from = this.events.length;
    // cut() before reset(): the reconnection is accepted but parked, so that release() connects at
    // once (a refused one is retried only after a third of the session timeout).
    await this.proxy.cut();
    await this.proxy.reset();
    await this.next('connecting', from);
    return { release: () => this.proxy.restore() };
  }

  async close(): Promise<void> {
    if (this.zk.isClosed) return;
    // From a macrotask: called inside the C client's processing (e.g. right after a reply, as
    // `await` resumes there), zookeeper_close only marks the handle and sends closeSession later.
    // From here it blocks until the server has answered, i.e. has ended the session.
    await new Promise((resolve) => setImmediate(resolve));
    const from = this.events.length;
    this.zk.close();
    // The C client's close has returned after the server's answer (and reported `closed:0`); the
    // TypeScript driver reports `closed:0` once closeSession is answered, i.e. the session is over.
    await this.next('closed:0', from);
  }
}

/** A server of this target: ZooKeeper's own (`ZkServer`), or another that speaks its protocol on loopback (the dev server). */
export interface TargetServer {
  readonly port: number;
  readonly connectString: string;
  dispose(): Promise<void>;
}

class ZookeeperEnv implements ScenarioEnv {
  readonly clients: ProxiedClient[] = [];

  constructor(
    private readonly server: TargetServer,
    private readonly admin: SessionHandle,
    private readonly proxies: ProxyThread,
    private readonly driver: ZkDriver,
    readonly root: string,
  ) {}

  async open(options: { auth?: { scheme: string; credentials: string } } = {}): Promise<ScenarioClient> {
    const client = new ProxiedClient(await this.proxies.proxy('127.0.0.1', this.server.port), this.driver);
    this.clients.push(client);
    // Before the connection, as ZkSession does: the C client sends it right after the handshake.
    // Added later, it is sent only with the next request or ping (a third of the session timeout).
    const auth = options.auth && client.zk.addAuth(options.auth.scheme, options.auth.credentials);
    await Promise.all([client.next('connected', 0), auth]);
    return client;
  }

  async expire(scenarioClient: ScenarioClient): Promise<void> {
    const client = this.own(scenarioClient);
    const from = client.events.length;
    const held = await client.hold();
    await closeFromSecondClient(this.server.connectString, client.zk.sessionId, client.zk.sessionPassword, SESSION_TIMEOUT_MS);
    await held.release();
    await client.next('closed:-112', from);
  }

  async cutConnection(scenarioClient: ScenarioClient, whileCut?: () => Promise<void>): Promise<void> {
    const client = this.own(scenarioClient);
    const from = client.events.length;
    const held = await client.hold();
    try {
      await whileCut?.();
    } finally {
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
  async sweepContainers(): Promise<void> {
    for (let i = 0; i < 2; i++) await this.sweptSentinel();
  }

  private async sweptSentinel(): Promise<void> {
    const sentinel = `/conformance-sweep-${randomUUID()}`;
    await this.admin.create(sentinel, null, 'container');
    await this.admin.delete(await this.admin.create(`${sentinel}/child`));
    let deleted!: () => void;
    const gone = new Promise<void>((resolve) => (deleted = resolve));
    const watcher: Watcher = (event) => { if (event.type === 'deleted') deleted(); };
    if ((await this.admin.exists(sentinel, watcher)) === null) return;
    await withTimeout(gone, EVENT_WAIT_MS, `the container sweep never removed ${sentinel}`);
  }

  async dispose(): Promise<void> {
    for (const client of this.clients) await client.close();
    await Promise.all(this.clients.map((client) => client.proxy.close()));
  }

  private own(client: ScenarioClient): ProxiedClient {
    if (!(client instanceof ProxiedClient) || !this.clients.includes(client)) throw new Error('not a client of this scenario');
    return client;
  }
}

/** The real server (or `TargetServer`), every scenario client (and the admin session) through `driver`. */
export class ZookeeperTarget implements ConformanceTarget {
  private constructor(
    readonly name: string,
    private readonly server: TargetServer,
    private readonly admin: SessionHandle,
    private readonly proxies: ProxyThread,
    private readonly driver: ZkDriver,
  ) {}

  static async start(name: string, driver: ZkDriver): Promise<ZookeeperTarget> {
    return ZookeeperTarget.startOn(name, driver, await ZkServer.start({ heap: '128m', jvmArgs: CONTAINER_SWEEP_FLAGS }));
  }

  /** The target on a server already started (disposed with the target, or at once if the admin session cannot connect). */
  static async startOn(name: string, driver: ZkDriver, server: TargetServer): Promise<ZookeeperTarget> {
    try {
      let connected!: () => void;
      const ready = new Promise<void>((resolve) => (connected = resolve));
      const admin = openSessionHandle(
        { connectString: server.connectString, sessionTimeoutMs: SESSION_TIMEOUT_MS, driver },
        { onConnected: () => connected(), onConnecting: () => undefined, onClosed: () => undefined },
      );
      await withTimeout(ready, EVENT_WAIT_MS, `no admin session to ${server.connectString}`);
      return new ZookeeperTarget(name, server, admin, ProxyThread.start(), driver);
    } catch (error) {
      await server.dispose();
      throw error;
    }
  }

  async run<T>(scenario: (env: ScenarioEnv) => Promise<T>): Promise<T> {
    // The suite runs one target at a time; inside a simulation, this target's waits would be virtual.
    if (isVirtualRuntimeInstalled()) throw new Error('the real-server target cannot run while a simulation has the virtual runtime installed');
    const env = new ZookeeperEnv(this.server, this.admin, this.proxies, this.driver, `/conformance-${randomUUID()}`);
    await this.admin.create(env.root);
    try {
      return await scenario(env);
    } finally {
      await env.dispose();
    }
  }

  async close(): Promise<void> {
    this.admin.close();
    await this.proxies.close();
    await this.server.dispose();
  }
}
