/**
 * A long-lived session follows the ensemble's membership (`/zookeeper/config`), as Curator's
 * EnsembleTracker does: on a reconfig-enabled ensemble of three, a fourth member is added and the
 * three original ones are removed one by one (each killed after its removal). The session knows
 * only the originals from its connect string; a lock and an election on it keep working at every
 * step, and once the last original is gone a forced reconnection (the last member pauses past the
 * read timeout) lands on the new member, the only one left.
 *
 * Four JVMs on a small machine: one ensemble, the spare started once, nothing restarted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LeaderElection } from '../../src/recipes/election/leader-election.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { randomRoot, StateRecorder } from '../fixtures/session-helpers.js';
import { CONFIG_NODE } from '../../src/zookeeper/ensemble-config.js';
import { reconfig, type ReconfigChange } from '../support/reconfig.js';
import { waitFor } from '../support/wait.js';
import { ZkEnsemble, type ZkServer } from '../support/zk-server.js';

// Long enough for a leader hand-over after a reconfig on a loaded machine, short of an expiry.
const SESSION_TIMEOUT_MS = 12_000;
const STEP_MS = 45_000;

describe('a session on an ensemble whose members all change', () => {
  let ensemble: ZkEnsemble;
  let session: ZkSession | undefined;
  const logs: string[] = [];

  before(async () => {
    ensemble = await ZkEnsemble.start({ size: 3, spareMembers: 1, reconfigEnabled: true, heap: '96m' });
  });
  after(async () => {
    await session?.close();
    await ensemble?.dispose();
  });

  it('keeps its lock and election working while every original member is replaced, and reconnects to the new one', { timeout: 300_000 }, async (t) => {
    const originals = ensemble.members.slice(0, 3);
    const spare = ensemble.members[3]!;
    const logger = { log: (m: string) => logs.push(`log: ${m}`), warn: (m: string) => logs.push(`warn: ${m}`), error: (m: string) => logs.push(`error: ${m}`) };
    session = new ZkSession({
      connectString: originals.map((member) => member.connectString).join(','),
      sessionTimeoutMs: SESSION_TIMEOUT_MS,
      connectTimeoutMs: 20_000,
      driver: 'typescript',
      logger,
    });
    await session.connect();
    const root = randomRoot();
    const locks = new LockClient(session, { root, logger });
    const election = new LeaderElection(session, { root, name: 'e', identity: 'moving', drainTimeoutMs: 1000 });
    t.after(() => election.close());
    election.join();
    const working = async (step: string) => {
      await waitFor(
        async () => {
          const lease = await locks.acquire('res', { waitMs: 10_000 });
          assert.equal(lease.isHeld, true);
          await lease.release();
          return true;
        },
        { timeoutMs: STEP_MS, intervalMs: 200, message: `a lock acquired and released ${step}` },
      ).catch((error: Error) => assert.fail(`${error.message}\n${logs.join('\n')}`));
      await waitFor(() => election.isLeader, { timeoutMs: STEP_MS, message: `leadership ${step}` })
        .catch((error: Error) => assert.fail(`${error.message}\n${logs.join('\n')}`));
    };
    await working('at the start');
    const session$ = session;
    const listed = (text: string, index: number) => new RegExp(`^server\\.${ensemble.idOf(index)}=`, 'm').test(text);
    /**
     * Sends `change` through `via` until the config, read through the session, shows it. A reconfig
     * that moves the leadership makes the followers drop their clients (they sync with the new
     * leader), so the reply may be lost although the change committed: the config tells.
     */
    const reconfigured = async (via: ZkServer, change: ReconfigChange, done: (config: string) => boolean) => {
      let lastError: unknown;
      await waitFor(async () => {
        await session$.sync(CONFIG_NODE);
        if (done((await session$.getData(CONFIG_NODE)).data.toString('utf8'))) return true;
        lastError = await reconfig(via, change).then(() => undefined, (error: unknown) => error);
        return false;
      }, { timeoutMs: STEP_MS, intervalMs: 200, message: `reconfig ${JSON.stringify(change)}` })
        .catch((error: Error) => assert.fail(`${error.message}; the last reconfig failed with: ${String(lastError)}\n${logs.join('\n')}`));
    };

    await spare.launch();
    await reconfigured(originals[0]!, { joining: [ensemble.serverLine(3)] }, (config) => listed(config, 3));
    await working('after the fourth member joined');
    await waitFor(() => logs.some((line) => line.includes('ZooKeeper ensemble') && line.includes(spare.connectString)), { timeoutMs: STEP_MS, message: 'the session read the new membership' });

    for (const [i, member] of originals.entries()) {
      const remaining = spare; // a member that stays in the config throughout
      await reconfigured(remaining, { leaving: [ensemble.idOf(i)] }, (config) => !listed(config, i));
      await member.kill();
      await working(`after original member ${ensemble.idOf(i)} was removed and killed`);
    }

    // Only the new member is left: a reconnection can succeed only on it.
    const recorder = new StateRecorder(session);
    await spare.pause();
    await recorder.waitFor('suspended', SESSION_TIMEOUT_MS).finally(() => spare.resume());
    await waitFor(() => recorder.states.some((state) => state === 'reconnected' || state === 'connected'), { timeoutMs: STEP_MS, message: 'a reconnection' })
      .catch((error: Error) => assert.fail(`${error.message} (states: ${recorder.states.join(' -> ')})\n${logs.join('\n')}`));
    await working('after reconnecting to the new member');
  });
});
