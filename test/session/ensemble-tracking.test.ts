/**
 * Following the ensemble (`EnsembleTracker`) where one server is enough to see it: the config node
 * is read at its absolute path under a chroot, and its watch is kept apart from a watch on the
 * application's own `/zookeeper/config` below the chroot; the session keeps one watch on it, none
 * with `followEnsemble: false`; the native driver says once that it cannot follow.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { CONFIG_NODE } from '../../src/zookeeper/ensemble-config.js';
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import type { WatchEvent } from '../../src/zookeeper/types.js';
import { firstHostPort, randomRoot, SessionPool, sharedConnectString } from '../fixtures/session-helpers.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { fourLetterWord } from '../support/zk-server.js';

const pool = new SessionPool();
afterEach(() => pool.closeAll());

/** The paths the server's `wchc` lists for `sessionId`, the config node included. */
async function serverWatches(sessionId: string): Promise<string[]> {
  const { host, port } = firstHostPort(sharedConnectString());
  const text = await fourLetterWord(host, port, 'wchc');
  const id = `0x${sessionId.replace(/^0+/, '')}`;
  const block = text.split(/\n(?=0x)/).find((part) => part.trim().split('\n')[0]!.trim() === id);
  return block ? block.trim().split('\n').slice(1).map((line) => line.trim()) : [];
}

describe('following the ensemble on one server', () => {
  it('reads /zookeeper/config at its absolute path under a chroot, its watch apart from the chrooted node of that name', async () => {
    const chroot = randomRoot();
    const setup = await pool.open({ driver: 'typescript' });
    await setup.create(chroot);
    await setup.create(`${chroot}/zookeeper`);
    await setup.create(`${chroot}/zookeeper/config`, Buffer.from('mine'));
    const handle = new ProtocolHandle({ connectString: `${sharedConnectString()}${chroot}`, sessionTimeoutMs: 4000 }, { onConnected() {}, onConnecting() {}, onClosed() {} });
    try {
      const config: WatchEvent[] = [];
      const own: WatchEvent[] = [];
      const ensemble = await withTimeout(handle.getConfig((event) => config.push(event)), 5000, 'getConfig');
      assert.equal(ensemble.data.length, 0, "a standalone server's config is empty (not NONODE below the chroot)");
      const mine = await handle.getData('/zookeeper/config', (event) => own.push(event));
      assert.equal(mine.data.toString(), 'mine', 'the chroot applies to the application\'s own paths');
      assert.equal(handle.watcherCount, 1, "the config watch is not the application's");
      await setup.setData(`${chroot}/zookeeper/config`, Buffer.from('changed'), -1);
      await waitFor(() => own.length === 1, { timeoutMs: 5000, message: "the application's watch fired" });
      await handle.sync('/'); // a notification for the config node would have come before this reply
      assert.deepEqual(own.map((event) => [event.type, event.path]), [['changed', '/zookeeper/config']]);
      assert.deepEqual(config, [], 'the config watch did not fire for the chrooted node');
      assert.deepEqual(await serverWatches(handle.sessionId), [CONFIG_NODE], 'the server holds the watch at the absolute path');
    } finally {
      await handle.close();
    }
  });

  it('keeps one watch on the config node per session, and none with followEnsemble: false', async () => {
    const following = await pool.open({ driver: 'typescript' });
    const notFollowing = await pool.open({ driver: 'typescript', followEnsemble: false });
    await waitFor(async () => (await serverWatches(following.sessionId!)).includes(CONFIG_NODE), { timeoutMs: 5000, message: 'the config watch' });
    assert.deepEqual(await serverWatches(following.sessionId!), [CONFIG_NODE]);
    assert.equal(following.watcherCount, 0, "the session's own watch is not counted");
    await notFollowing.sync('/');
    assert.deepEqual(await serverWatches(notFollowing.sessionId!), []);
  });

  it('says once that the native driver cannot follow the ensemble', async (t) => {
    const logs: string[] = [];
    const logger = { log: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) };
    try {
      await pool.open({ driver: 'native', logger });
    } catch (error) {
      if ((error as { code?: string }).code === 'ZK_NATIVE_CLIENT_MISSING') return t.skip('the zookeeper package is not installed');
      throw error;
    }
    const said = logs.filter((line) => line.includes('cannot change its server list'));
    assert.equal(said.length, 1, logs.join('\n'));
    assert.match(said[0]!, /native driver .* does not follow the ensemble's membership/);
  });
});
