/**
 * The powers of ZooKeeper's protocol that the default driver gives `ZkSession` (create2, multi,
 * persistent watches, removeWatches, getEphemerals, whoAmI), on a real server, and the native
 * driver's typed refusal of each.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { DriverUnsupportedError } from '../../src/errors/driver-unsupported.error.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { OPEN_ACL_UNSAFE, type WatchEvent } from '../../src/zookeeper/types.js';
import { firstHostPort, randomRoot, SessionPool, sharedConnectString, StateRecorder } from '../fixtures/session-helpers.js';
import { watchedBy } from '../support/server-watches.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';

const pool = new SessionPool();
afterEach(() => pool.closeAll());

describe('protocol powers on the default driver', () => {
  // These sessions name their driver: ZK_TEST_DRIVER=native would otherwise give them the C client.
  const open = (overrides: Parameters<typeof pool.open>[0] = {}) => pool.open({ driver: 'typescript', ...overrides });
  it('create2 answers with the stat; multi applies all or nothing', async () => {
    const session = await open();
    const root = randomRoot();
    const created = await session.create2(root, Buffer.from('v0'));
    assert.equal(created.path, root);
    assert.equal(created.stat.version, 0);
    assert.equal(created.stat.dataLength, 2);
    assert.equal(created.stat.czxid, (await session.exists(root))!.czxid);

    const applied = await session.multi([
      { type: 'check', path: root, version: 0 },
      { type: 'create', path: `${root}/a`, data: Buffer.from('a'), acl: OPEN_ACL_UNSAFE, flags: 0 },
      { type: 'setData', path: root, data: Buffer.from('v1'), version: 0 },
    ]);
    assert.deepEqual(applied.map((r) => r.type), ['check', 'create', 'setData']);
    assert.equal((await session.getData(root)).stat.version, 1);

    // A failing check: nothing of the transaction is applied, and each op says why.
    const failed = await session.multi([
      { type: 'check', path: root, version: 0 },
      { type: 'delete', path: `${root}/a`, version: -1 },
    ]);
    assert.deepEqual(failed, [{ type: 'error', err: -103 }, { type: 'error', err: -2 }], 'BADVERSION, then RUNTIMEINCONSISTENCY');
    assert.ok(await session.exists(`${root}/a`), 'the delete was not applied');
  });

  it('a persistent recursive watch fires on every change below it, also after a reconnection, until removed', async () => {
    const { host, port } = firstHostPort(sharedConnectString());
    const proxy = await TcpProxy.start(host, port);
    try {
      const session = await open({ connectString: proxy.connectString, sessionTimeoutMs: 4000 });
      const writer = await open();
      const root = randomRoot();
      await writer.create(root);
      const events: WatchEvent[] = [];
      await session.addWatch(root, true, (event) => events.push(event));
      await writer.create(`${root}/a`);
      await writer.setData(`${root}/a`, Buffer.from('1'), -1);
      await waitFor(() => events.length === 2, { timeoutMs: 5000, message: 'two events' });

      // The connection drops and comes back: the watch is set again (setWatches2). Unlike a
      // one-shot watch, the server does not report what changed meanwhile (`DataTree.setWatches`
      // re-adds persistent watches as they are): whoever needs that reads again on `reconnected`.
      const recorder = new StateRecorder(session);
      proxy.refuse(true);
      proxy.reset();
      await recorder.waitFor('suspended', 5000);
      await writer.create(`${root}/b`);
      proxy.refuse(false);
      await recorder.waitFor('reconnected', 10_000);
      // The watches went out first thing on the new connection; an answer to a request sent after
      // them says the server has set them again (a session's requests are served in order).
      await session.exists(root);
      await writer.delete(`${root}/b`);
      await waitFor(() => events.some((e) => e.path === `${root}/b`), { timeoutMs: 5000, message: 'a change after the reconnection' });
      assert.deepEqual(events.filter((e) => e.path === `${root}/b`).map((e) => e.type), ['deleted'], 'only the change after the reconnection');
      assert.deepEqual(await watchedBy(sharedConnectString(), session.sessionId!), [root]);

      await session.removeWatches(root, 'any');
      assert.deepEqual(await watchedBy(sharedConnectString(), session.sessionId!), [], 'the server dropped the watch');
      const before = events.length;
      await writer.delete(`${root}/a`);
      await writer.sync('/');
      await session.sync('/');
      assert.equal(events.length, before, 'no event after the removal');
      recorder.stop();
    } finally {
      proxy.close();
    }
  });

  it('removes a one-shot watch from the server once no watcher of the session needs it', async () => {
    const session = await open();
    const root = randomRoot();
    await session.create(root);
    const first = () => undefined;
    const second = () => undefined;
    await session.getData(root, first);
    await session.getData(root, second);
    assert.equal(session.watcherCount, 2);
    await session.removeWatches(root, 'data', first);
    assert.deepEqual(await watchedBy(sharedConnectString(), session.sessionId!), [root], 'still needed by the second watcher');
    await session.removeWatches(root, 'data', second);
    assert.deepEqual(await watchedBy(sharedConnectString(), session.sessionId!), []);
    assert.equal(session.watcherCount, 0);
    // A watcher the client no longer holds asks the server nothing (it would answer NOWATCHER).
    await session.removeWatches(root, 'data', second);
  });

  it('keeps the server\'s watch for a watched read still in flight when the last registered watcher is removed', async () => {
    const session = await open();
    const root = randomRoot();
    await session.create(root);
    const first = () => undefined;
    let fired = 0;
    const second = () => void (fired += 1);
    await session.getData(root, first);
    // Sent before the removal, answered after it was sent: the server sets the (same) watch again,
    // then would remove it, while `second` is registered only as its reply is read.
    const read = session.getData(root, second);
    await session.removeWatches(root, 'data', first);
    await read;
    assert.deepEqual(await watchedBy(sharedConnectString(), session.sessionId!), [root], 'the in-flight read still needs it');
    await session.setData(root, Buffer.from('x'), -1);
    await waitFor(() => fired === 1, { timeoutMs: 5000, message: 'the in-flight read\'s watcher fires' });
  });

  it('getEphemerals lists this session\'s ephemeral nodes; whoAmI its identities', async () => {
    const session = await open({ auth: [{ scheme: 'digest', credentials: 'powers:secret' }] });
    const root = randomRoot();
    await session.create(root);
    const own = await session.create(`${root}/e-`, null, 'ephemeral_sequential');
    assert.deepEqual(await session.getEphemerals(root), [own]);
    const identities = await session.whoAmI();
    assert.ok(identities.some((id) => id.scheme === 'digest' && id.user === 'powers'), JSON.stringify(identities));
  });
});

describe('protocol powers on the native driver', () => {
  it('refuses each with DriverUnsupportedError naming it and the driver, before anything is sent', async (t) => {
    let session;
    try {
      session = await pool.open({ driver: 'native' });
    } catch (error) {
      if ((error as { code?: string }).code === 'ZK_NATIVE_CLIENT_MISSING') return t.skip('the zookeeper package is not installed');
      throw error;
    }
    const refusals: [string, () => Promise<unknown>][] = [
      ['create2', () => session.create2('/x')],
      ['multi', () => session.multi([{ type: 'check', path: '/', version: -1 }])],
      ['addWatch', () => session.addWatch('/', false, () => undefined)],
      ['removeWatches', () => session.removeWatches('/', 'any')],
      ['getEphemerals', () => session.getEphemerals('/')],
      ['whoAmI', () => session.whoAmI()],
    ];
    for (const [name, request] of refusals) {
      await assert.rejects(withTimeout(request(), 2000), (error: unknown) => {
        assert.ok(error instanceof DriverUnsupportedError, String(error));
        assert.equal(error.operation, name);
        assert.equal(error.driver, 'native');
        assert.match(error.message, /use driver 'typescript'/);
        return true;
      });
    }
    assert.ok(!ZooKeeperError.is(undefined));
  });
});
