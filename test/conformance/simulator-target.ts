/**
 * The simulator's conformance target: every scenario runs on a fresh simulated ZooKeeper of one
 * member (the real-server target runs one standalone server: one server, no follower to read
 * stale from), on virtual time. The real target's server settings are the simulator's here:
 * ZkServer's tickTime (500 ms) and session timeout bounds (1 s to 60 s), a container sweep every
 * 100 ms, and the same 6 s session timeout for every client.
 *
 * Each run has its own `SimScheduler` (seeded: a scenario's run is the same every time) with the
 * virtual runtime installed for exactly as long as the scenario runs. The real-server target never
 * runs meanwhile: the suite runs a scenario's targets one after the other, never at once.
 *
 * Every client is opened as a step of an actor of its own (`c1`, `c2`, ...; `admin` creates the
 * root): its handle is that actor's, so a fault aimed at the actor (`partition`, the connections
 * of `connectionsOf`) reaches that client only.
 */
import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';
import { installVirtualRuntime } from '../../src/zookeeper/simulated/virtual-runtime.js';
import { ZooKeeperHandle } from '../../src/zookeeper/zookeeper-handle.js';
import type { ZkDriver } from '../../src/zookeeper/open-session-handle.js';
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import type { SessionHandle } from '../../src/zookeeper/session-handle.js';
import { EVENT_WAIT_MS, RecordingClient } from './recording-client.js';
import type { ConformanceTarget, ScenarioClient, ScenarioEnv } from './target.js';

/** The seed of every scenario's run; CONFORMANCE_SIM_SEED picks another (to replay one). */
const SEED = Number(process.env.CONFORMANCE_SIM_SEED ?? 1);
const SESSION_TIMEOUT_MS = 6000;
const CONTAINER_CHECK_MS = 100;
/** A scenario that has not settled after this much virtual time hangs: it fails, saying so. */
const SCENARIO_LIMIT_MS = 10 * 60_000;

/**
 * One client of a scenario, opened as `actor`'s step: on `native`, a `ZooKeeperHandle` over the
 * simulated C client; on `typescript`, the default driver's `ProtocolHandle` over simulated
 * sockets (`ensemble.dialer`), its frames answered by the ensemble's frame server.
 */
class SimulatedClient extends RecordingClient {
  zk!: SessionHandle;

  constructor(
    readonly actor: string,
    private readonly env: SimulatorEnv,
  ) {
    super();
  }

  /** Opens the session; to be called in a step of `actor`. */
  connect(ensemble: SimulatedEnsemble): void {
    const options = { connectString: ensemble.connectString, sessionTimeoutMs: SESSION_TIMEOUT_MS };
    this.zk =
      this.env.driver === 'native'
        ? new ZooKeeperHandle({ ...options, binding: ensemble.binding }, this.listeners)
        : new ProtocolHandle({ ...options, dialer: ensemble.dialer }, this.listeners);
  }

  async close(): Promise<void> {
    const id = this.zk.sessionId;
    // Either client sends closeSession and reports `closed:0` at once; the server ends the
    // session when the request arrives.
    this.zk.close();
    await this.env.until(() => !this.env.ensemble.liveSessions().includes(id), `the end of session 0x${id}`);
  }
}

class SimulatorEnv implements ScenarioEnv {
  readonly clients: SimulatedClient[] = [];

  constructor(
    private readonly scheduler: SimScheduler,
    readonly ensemble: SimulatedEnsemble,
    readonly root: string,
    readonly driver: ZkDriver,
  ) {}

  /** Creates the root with a client of its own, runs the scenario, closes every client. */
  async perform<T>(scenario: (env: ScenarioEnv) => Promise<T>): Promise<T> {
    const admin = await this.connect('admin');
    await admin.zk.create(this.root);
    try {
      return await scenario(this);
    } finally {
      for (const client of [...this.clients, admin]) await client.close();
    }
  }

  async open(options: { auth?: { scheme: string; credentials: string } } = {}): Promise<ScenarioClient> {
    const client = await this.connect(`c${this.clients.length + 1}`, options.auth);
    this.clients.push(client);
    return client;
  }

  async expire(scenarioClient: ScenarioClient): Promise<void> {
    const client = this.own(scenarioClient);
    const from = client.events.length;
    const release = await this.hold(client);
    // The server's session tracker expires it, as after a timeout: its ephemeral nodes go now.
    this.ensemble.expireSession(client.zk.sessionId);
    release();
    await client.next('closed:-112', from);
  }

  async cutConnection(scenarioClient: ScenarioClient, whileCut?: () => Promise<void>): Promise<void> {
    const client = this.own(scenarioClient);
    const from = client.events.length;
    const release = await this.hold(client);
    try {
      await whileCut?.();
    } finally {
      release();
    }
    await client.next('connected', from);
  }

  /**
   * The ensemble sweeps every CONTAINER_CHECK_MS of virtual time, each sweep in one step; waiting
   * a whole interval sees one start after this call, then its deletions are applied.
   */
  async sweepContainers(): Promise<void> {
    const start = this.scheduler.now;
    await this.until(() => this.scheduler.now > start + CONTAINER_CHECK_MS, 'a container sweep');
  }

  /**
   * Resolves once `done()` holds (checked every virtual ms) and every member that is up has
   * applied all the leader committed: what the client reads next shows it.
   */
  async until(done: () => boolean, what: string): Promise<void> {
    const deadline = this.scheduler.now + EVENT_WAIT_MS;
    const applied = () => this.ensemble.members.every((member) => !member.up || member.tree.lastZxid === this.ensemble.lastZxid);
    while (!(done() && applied())) {
      if (this.scheduler.now >= deadline) throw new Error(`${what} did not come within ${EVENT_WAIT_MS} virtual ms`);
      await new Promise<void>((resolve) => this.scheduler.schedule(1, resolve, 'poll'));
    }
  }

  /** Opens a client as a step of `actor`, adding `auth` before it connects (as ZkSession does). */
  private async connect(actor: string, auth?: { scheme: string; credentials: string }): Promise<SimulatedClient> {
    const client = new SimulatedClient(actor, this);
    const authenticated = new Promise<void>((resolve, reject) => {
      this.scheduler.schedule(0, () => {
        client.connect(this.ensemble);
        if (auth) client.zk.addAuth(auth.scheme, auth.credentials).then(resolve, reject);
        else resolve();
      }, 'open', actor);
    });
    await Promise.all([client.next('connected', 0), authenticated]);
    return client;
  }

  /**
   * Drops the client's connection (its server closes it: the client is told after the network
   * delay) and cuts its actor off the network, so that its reconnection attempts time out
   * unanswered. The returned function ends the cut: the client's next attempt connects.
   */
  private async hold(client: SimulatedClient): Promise<() => void> {
    const from = client.events.length;
    this.ensemble.partition(client.actor, Infinity);
    for (const connection of this.ensemble.connectionsOf(client.actor)) connection.close('conformance: connection cut');
    await client.next('connecting', from);
    // heal() ends every partition (and lag): this world has no other fault.
    return () => this.ensemble.heal();
  }

  private own(client: ScenarioClient): SimulatedClient {
    if (!(client instanceof SimulatedClient) || !this.clients.includes(client)) throw new Error('not a client of this scenario');
    return client;
  }
}

export class SimulatorTarget implements ConformanceTarget {
  private constructor(
    readonly name: string,
    private readonly driver: ZkDriver,
  ) {}

  static start(name: string, driver: ZkDriver): Promise<SimulatorTarget> {
    return Promise.resolve(new SimulatorTarget(name, driver));
  }

  async run<T>(scenario: (env: ScenarioEnv) => Promise<T>): Promise<T> {
    const scheduler = new SimScheduler(SEED);
    const uninstall = installVirtualRuntime(scheduler);
    try {
      const ensemble = new SimulatedEnsemble(scheduler, {
        serverIds: [1],
        tickMs: 500,
        minSessionTimeoutMs: 1000,
        maxSessionTimeoutMs: 60_000,
        containerCheckMs: CONTAINER_CHECK_MS,
      });
      const env = new SimulatorEnv(scheduler, ensemble, `/conformance-${scheduler.random.uuid()}`, this.driver);
      let outcome: { value: T } | { error: unknown } | undefined;
      scheduler.schedule(0, () => {
        env.perform(scenario).then((value) => (outcome = { value }), (error: unknown) => (outcome = { error }));
      }, 'scenario', 'scenario');
      const ended = await scheduler.run({ done: () => outcome !== undefined, untilMs: SCENARIO_LIMIT_MS });
      if (!outcome) {
        throw new Error(`the scenario did not settle within ${SCENARIO_LIMIT_MS / 60_000} virtual minutes (run ended: ${ended}, at ${scheduler.now} virtual ms, seed ${SEED})`);
      }
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    } finally {
      uninstall();
    }
  }

  async close(): Promise<void> {}
}
