/**
 * The simulated ensemble's dynamic reconfiguration (issue 32, a moving ensemble): a server joins
 * with a new id and address, the original members leave (the leader among them), and
 * `/zookeeper/config` says so as the real server writes it (`server.<id>=...`, `version=<hex
 * zxid>`, data version -1, its data watch fired). A session that follows the config (`ZkSession`'s
 * `EnsembleTracker`) lives on through it on the new member; one that does not is left with retired
 * servers only and expires.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONFIG_NODE } from '../../src/zookeeper/ensemble-config.js';
import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';
import { installVirtualRuntime } from '../../src/zookeeper/simulated/virtual-runtime.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';

const TIMEOUT_MS = 4000;

/** Runs `body` on a fresh reconfig-enabled three-member ensemble, on virtual time. */
async function onVirtualTime<T>(body: (ensemble: SimulatedEnsemble, scheduler: SimScheduler) => Promise<T>): Promise<T> {
  const scheduler = new SimScheduler(32);
  const uninstall = installVirtualRuntime(scheduler);
  try {
    const ensemble = new SimulatedEnsemble(scheduler, { serverIds: [1, 2, 3], reconfigEnabled: true });
    let result!: { value: T } | { error: unknown };
    scheduler.schedule(0, () => void body(ensemble, scheduler).then((value) => (result = { value }), (error: unknown) => (result = { error })), 'test', 'client');
    await scheduler.run({ untilMs: 10 * 60_000, done: () => result !== undefined });
    assert.ok(result, 'the test body settled');
    if ('error' in result) throw result.error;
    return result.value;
  } finally {
    uninstall();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A session on the original members, through the TypeScript driver; the states it went through. */
function openSession(ensemble: SimulatedEnsemble, followEnsemble: boolean) {
  const states: string[] = [];
  const session = new ZkSession({ connectString: ensemble.connectString, sessionTimeoutMs: TIMEOUT_MS, connectTimeoutMs: 60_000, dialer: ensemble.dialer, followEnsemble });
  session.state$.subscribe((change) => states.push(change.state));
  return { session, states };
}

describe('simulated reconfig', () => {
  it('lists the members in /zookeeper/config, versioned by the reconfig zxid, and fires its watch', async () => {
    await onVirtualTime(async (ensemble) => {
      const { session } = openSession(ensemble, false);
      await session.connect();
      const before = await session.getData(CONFIG_NODE);
      assert.equal(
        before.data.toString('utf8'),
        'server.1=zk1.sim:2888:3888:participant;zk1.sim:2181\nserver.2=zk2.sim:2888:3888:participant;zk2.sim:2181\nserver.3=zk3.sim:2888:3888:participant;zk3.sim:2181\nversion=100000000',
      );
      // Written as each server starts (`initConfigInZKDatabase`): version -1, mzxid the config's version.
      assert.deepEqual([before.stat.version, before.stat.mzxid], [-1, 0x100000000n]);
      const events: string[] = [];
      await session.getData(CONFIG_NODE, (event) => events.push(`${event.type} ${event.path}`));
      assert.equal(ensemble.reconfigure({ joining: [4], leaving: [1] }), true);
      await sleep(1000);
      const after = await session.getData(CONFIG_NODE);
      const version = /\nversion=([0-9a-f]+)$/.exec(after.data.toString('utf8'))?.[1];
      assert.equal(after.data.toString('utf8'), `server.2=zk2.sim:2888:3888:participant;zk2.sim:2181\nserver.3=zk3.sim:2888:3888:participant;zk3.sim:2181\nserver.4=zk4.sim:2888:3888:participant;zk4.sim:2181\nversion=${version}`);
      assert.equal(BigInt(`0x${version}`), after.stat.mzxid, 'the version is the zxid of the reconfig');
      assert.equal(after.stat.version, -1);
      assert.deepEqual(events, ['changed /zookeeper/config']);
      assert.equal(ensemble.reconfigure({ joining: [4] }), false, 'a member that is one already cannot join');
      assert.equal(ensemble.reconfigure({ leaving: [1] }), false, 'a retired member cannot leave again');
      await session.close();
    });
  });

  it('keeps a session that follows the config alive while every original member is replaced', async () => {
    await onVirtualTime(async (ensemble) => {
      const { session, states } = openSession(ensemble, true);
      await session.connect();
      const id = session.sessionId;
      assert.equal(ensemble.reconfigure({ joining: [4] }), true);
      await sleep(1000);
      for (const leaving of [1, 2, 3]) {
        assert.equal(ensemble.reconfigure({ leaving: [leaving] }), true, `member ${leaving} leaves`);
        await sleep(3 * TIMEOUT_MS);
        await session.create(`/after-${leaving}`);
      }
      assert.deepEqual(ensemble.members.map((m) => m.id), [4]);
      assert.equal(session.sessionId, id, 'the same session throughout');
      assert.ok(!states.includes('expired'), `states: ${states.join(' -> ')}`);
      assert.deepEqual(ensemble.connectionsOf('client').map((c) => c.member.id), [4]);
      await session.close();
    });
  });

  it('leaves a session that does not follow the config with retired servers only: it expires', async () => {
    const states = await onVirtualTime(async (ensemble) => {
      const { session, states } = openSession(ensemble, false);
      await session.connect();
      ensemble.reconfigure({ joining: [4] });
      for (const leaving of [1, 2, 3]) ensemble.reconfigure({ leaving: [leaving] });
      await sleep(5 * TIMEOUT_MS);
      await session.close();
      return states;
    });
    assert.ok(states.includes('expired'), `states: ${states.join(' -> ')}`);
  });
});
