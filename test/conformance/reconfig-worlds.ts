/**
 * Where the reconfig scenario runs (reconfig.test.ts): an ensemble of one member (server 1) with a
 * spare (server 2) that a reconfig adds, and that a second reconfig leaves alone once server 1 is
 * retired. The real one is ZooKeeper's, reconfig-enabled (two JVMs, the spare launched only when
 * it joins); the simulated one is `SimulatedEnsemble` with `reconfigEnabled`, on virtual time.
 * Their clients speak the default driver (`ProtocolHandle`): only it can change its servers.
 */
import { CONFIG_NODE } from '../../src/zookeeper/ensemble-config.js';
import { openSessionHandle } from '../../src/zookeeper/open-session-handle.js';
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import type { SessionHandle } from '../../src/zookeeper/session-handle.js';
import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import type { MembershipChange } from '../../src/zookeeper/simulated/ensemble-membership.js';
import { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';
import { installVirtualRuntime } from '../../src/zookeeper/simulated/virtual-runtime.js';
import { reconfig, type ReconfigChange } from '../support/reconfig.js';
import { waitFor } from '../support/wait.js';
import { ZkEnsemble } from '../support/zk-server.js';
import { RecordingClient } from './recording-client.js';

const SESSION_TIMEOUT_MS = 6000;

export class ReconfigClient extends RecordingClient {
  readonly zk: SessionHandle;

  constructor(open: (listeners: RecordingClient['listeners']) => SessionHandle) {
    super();
    this.zk = open(this.listeners);
  }

  async close(): Promise<void> {
    if (this.zk.isClosed) return;
    const from = this.events.length;
    this.zk.close();
    await this.next('closed:0', from);
  }
}

export interface ReconfigWorld {
  /** A client that knows server 1 only (its connect string), connected. */
  open(): Promise<ReconfigClient>;
  /** Server 2 joins (a reconfig); resolves once it committed. */
  join(): Promise<void>;
  /** Server 1 is removed (a reconfig) and no longer serves; resolves once that committed. */
  retireFirst(): Promise<void>;
  /** `m1` or `m2` for a member's client address (`host:port`). */
  name(address: string): string;
}

/** ZooKeeper's reconfig-enabled ensemble: started once, each run a fresh one (a reconfig cannot be undone cheaply). */
export async function runOnZooKeeper<T>(body: (world: ReconfigWorld) => Promise<T>): Promise<T> {
  const ensemble = await ZkEnsemble.start({ size: 1, spareMembers: 1, reconfigEnabled: true, heap: '96m' });
  const clients: ReconfigClient[] = [];
  const [first, spare] = ensemble.members as [ZkEnsemble['members'][0], ZkEnsemble['members'][0]];
  /**
   * Sends `change` through `via` until the config read through `via` shows `done`: a reconfig that
   * moves the leadership may lose its reply although it committed (see moving-ensemble.test.ts),
   * so a failed one counts as "not yet" (`waitFor` reports its error if time runs out).
   */
  const reconfigured = async (via: typeof first, change: ReconfigChange, done: (config: string) => boolean) => {
    await waitFor(async () => {
      const reader = openSessionHandle({ connectString: via.connectString, sessionTimeoutMs: SESSION_TIMEOUT_MS, driver: 'typescript' }, { onConnected() {}, onConnecting() {}, onClosed() {} });
      try {
        await reader.sync(CONFIG_NODE);
        if (done((await reader.getData(CONFIG_NODE)).data.toString('utf8'))) return true;
      } finally {
        reader.close();
      }
      await reconfig(via, change);
      return false;
    }, { timeoutMs: 60_000, intervalMs: 200, message: `reconfig ${JSON.stringify(change)}` });
  };
  try {
    return await body({
      open: async () => {
        const client = new ReconfigClient((listeners) => new ProtocolHandle({ connectString: first.connectString, sessionTimeoutMs: SESSION_TIMEOUT_MS }, listeners));
        clients.push(client);
        await client.next('connected', 0);
        return client;
      },
      join: async () => {
        await spare.launch();
        await reconfigured(first, { joining: [ensemble.serverLine(1)] }, (config) => /^server\.2=/m.test(config));
      },
      retireFirst: async () => {
        await reconfigured(spare, { leaving: [ensemble.idOf(0)] }, (config) => !/^server\.1=/m.test(config));
        // A removed server does not serve clients; stopped, it surely does not.
        await first.kill();
      },
      name: (address) => (address === first.connectString ? 'm1' : address === spare.connectString ? 'm2' : `unknown ${address}`),
    });
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await ensemble.dispose();
  }
}

/** The simulated ensemble: members `zk1.sim:2181` and (once it joined) `zk2.sim:2181`. */
export async function runOnSimulator<T>(body: (world: ReconfigWorld) => Promise<T>): Promise<T> {
  const scheduler = new SimScheduler(Number(process.env.CONFORMANCE_SIM_SEED ?? 1));
  const uninstall = installVirtualRuntime(scheduler);
  try {
    const ensemble = new SimulatedEnsemble(scheduler, { serverIds: [1], tickMs: 500, minSessionTimeoutMs: 1000, maxSessionTimeoutMs: 60_000, reconfigEnabled: true });
    const clients: ReconfigClient[] = [];
    const change = (what: MembershipChange) => {
      if (!ensemble.reconfigure(what)) throw new Error(`the simulated ensemble refused reconfig ${JSON.stringify(what)}`);
      // As the real helper: resolves once every member applied it.
      return waitFor(() => ensemble.members.every((m) => m.tree.lastZxid === ensemble.lastZxid), { message: 'the reconfig applied' }).then(() => undefined);
    };
    const world: ReconfigWorld = {
      open: async () => {
        const client = new ReconfigClient((listeners) => new ProtocolHandle({ connectString: ensemble.connectString, sessionTimeoutMs: SESSION_TIMEOUT_MS, dialer: ensemble.dialer }, listeners));
        clients.push(client);
        await client.next('connected', 0);
        return client;
      },
      join: () => change({ joining: [2] }),
      retireFirst: () => change({ leaving: [1] }),
      name: (address) => (address === 'zk1.sim:2181' ? 'm1' : address === 'zk2.sim:2181' ? 'm2' : `unknown ${address}`),
    };
    let outcome: { value: T } | { error: unknown } | undefined;
    scheduler.schedule(0, () => {
      body(world)
        .finally(async () => { for (const client of clients) await client.close().catch(() => undefined); })
        .then((value) => (outcome = { value }), (error: unknown) => (outcome = { error }));
    }, 'scenario', 'scenario');
    await scheduler.run({ done: () => outcome !== undefined, untilMs: 10 * 60_000 });
    if (!outcome) throw new Error('the reconfig scenario did not settle within 10 virtual minutes');
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  } finally {
    uninstall();
  }
}
