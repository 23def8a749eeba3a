/**
 * Every failure reaches the caller as a typed error: server answers (NONODE, NODEEXISTS, ...),
 * connection loss (through a TcpProxy), session expiry, and use after close. Plus the parsing of
 * the `zookeeper` package's error shapes by `ZooKeeperError.from`.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { SessionClosedError } from '../../src/errors/session-closed.error.js';
import { ZkLockError } from '../../src/errors/zk-lock.error.js';
import { ZooKeeperError, type ZooKeeperErrorName } from '../../src/errors/zookeeper.error.js';
import { CREATOR_ALL_ACL, ZK_PERMS } from '../../src/zookeeper/types.js';
import { ZkSession, type ZkSessionOptions } from '../../src/zookeeper/supervised-session.js';
import { openSessionHandle } from '../../src/zookeeper/open-session-handle.js';
import type { SessionHandle } from '../../src/zookeeper/session-handle.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { TEST_DRIVER } from '../support/test-driver.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { expireFromSecondClient, firstHostPort, randomRoot, SessionPool, sharedConnectString, StateRecorder } from '../fixtures/session-helpers.js';

/** Asserts that `promise` rejects with a ZooKeeperError of `code` for `operation` on `path`. */
async function rejectsWith(promise: Promise<unknown>, code: ZooKeeperErrorName, operation: string, path?: string): Promise<ZooKeeperError> {
  const error = await promise.then(
    (value) => assert.fail(`expected ${code}, got ${String(value)}`),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ZooKeeperError, `expected a ZooKeeperError, got ${String(error)}`);
  assert.ok(error instanceof ZkLockError);
  assert.equal(error.zkCode, code, error.message);
  assert.equal(error.code, `ZK_${code}`);
  assert.equal(error.operation, operation);
  if (path !== undefined) assert.equal(error.path, path);
  return error;
}

describe('ZooKeeperError.from', () => {
  it('parses the package string errors, bare numbers and Error messages', () => {
    const fromString = ZooKeeperError.from('-101 no node', 'getData', '/a');
    assert.equal(fromString.zkCode, 'NONODE');
    assert.equal(fromString.rc, -101);
    assert.equal(fromString.path, '/a');
    assert.match(fromString.message, /getData on \/a failed: NONODE \(-101, no node\)/);

    assert.equal(ZooKeeperError.from(-110, 'create').zkCode, 'NODEEXISTS');
    assert.equal(ZooKeeperError.from(new Error('-103 bad version'), 'setData').zkCode, 'BADVERSION');
    assert.equal(ZooKeeperError.from('  -4 connection loss', 'exists').isConnectionError, true);
    assert.equal(ZooKeeperError.from('-112', 'exists').isSessionGone, true);
    assert.equal(ZooKeeperError.from('-9999 from the future', 'exists').zkCode, 'UNKNOWN');
  });

  it('keeps unknown text and returns an existing ZooKeeperError unchanged', () => {
    const unknown = ZooKeeperError.from('something odd happened', 'sync', '/x');
    assert.equal(unknown.zkCode, 'UNKNOWN');
    assert.equal(unknown.rc, 0);
    assert.match(unknown.message, /something odd happened/);
    assert.equal(ZooKeeperError.from('123abc', 'sync').zkCode, 'UNKNOWN', 'digits glued to text are not an rc');
    assert.equal(unknown.isConnectionError || unknown.isSessionGone, false);
    assert.equal(ZooKeeperError.from(unknown, 'other'), unknown);
  });
});

describe('ZkSession options', () => {
  it('refuses a missing or malformed connect string or timeout with InvalidOptionsError naming it', () => {
    const valid: ZkSessionOptions = { connectString: '127.0.0.1:2181', sessionTimeoutMs: 2000, connectTimeoutMs: 1000 };
    const cases: [Record<string, unknown>, string][] = [
      [{ connectString: undefined }, 'connectString'],
      [{ connectString: ' ' }, 'connectString'],
      [{ sessionTimeoutMs: undefined }, 'sessionTimeoutMs'],
      [{ connectTimeoutMs: undefined }, 'connectTimeoutMs'],
      [{ connectTimeoutMs: 0 }, 'connectTimeoutMs'],
      [{ sessionTimeoutMs: 1.5 }, 'sessionTimeoutMs'],
      [{ connectTimeoutMs: '1000' }, 'connectTimeoutMs'],
    ];
    for (const [override, field] of cases) {
      assert.throws(
        () => new ZkSession({ ...valid, ...override } as unknown as ZkSessionOptions),
        (error) => error instanceof InvalidOptionsError && error.field === field,
        JSON.stringify(override),
      );
    }
    assert.throws(() => new ZkSession(undefined as unknown as ZkSessionOptions), InvalidOptionsError);
    new ZkSession(valid).close(); // never connected: nothing to wait for
  });
});

describe('ZkSession typed errors', () => {
  const pool = new SessionPool();
  const proxies: TcpProxy[] = [];
  afterEach(async () => {
    // Proxies first: closing a session blocks the event loop (up to 1.5 s) waiting for the server's
    // reply, which an in-process proxy cannot forward meanwhile.
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
    pool.closeAll();
  });

  async function proxied(): Promise<TcpProxy> {
    const { host, port } = firstHostPort(sharedConnectString());
    const proxy = await TcpProxy.start(host, port);
    proxies.push(proxy);
    return proxy;
  }

  it('maps NONODE, NODEEXISTS, BADVERSION, NOTEMPTY and NOCHILDRENFOREPHEMERALS', async () => {
    const session = await pool.open();
    const root = randomRoot();
    await rejectsWith(session.getData(root), 'NONODE', 'getData', root);
    await rejectsWith(session.setData(root, Buffer.from('x'), -1), 'NONODE', 'setData', root);
    await rejectsWith(session.delete(root), 'NONODE', 'delete', root);
    await rejectsWith(session.getChildren(root), 'NONODE', 'getChildren', root);
    await rejectsWith(session.create(`${root}/child`), 'NONODE', 'create', `${root}/child`);

    await session.create(root);
    const exists = await rejectsWith(session.create(root), 'NODEEXISTS', 'create', root);
    assert.equal(exists.isConnectionError || exists.isSessionGone, false, 'a server answer is neither');

    await rejectsWith(session.setData(root, Buffer.from('x'), 7), 'BADVERSION', 'setData', root);
    await rejectsWith(session.delete(root, 3), 'BADVERSION', 'delete', root);

    await session.create(`${root}/child`);
    await rejectsWith(session.delete(root), 'NOTEMPTY', 'delete', root);

    await session.create(`${root}/eph`, null, 'ephemeral');
    await rejectsWith(session.create(`${root}/eph/child`), 'NOCHILDRENFOREPHEMERALS', 'create', `${root}/eph/child`);
  });

  it('maps NOAUTH for a digest-only node and INVALIDACL for an unusable ACL', async () => {
    const alice = await pool.open({ auth: [{ scheme: 'digest', credentials: 'alice:secret' }] });
    const bob = await pool.open({ auth: [{ scheme: 'digest', credentials: 'bob:other' }] });
    const anonymous = await pool.open();
    const root = randomRoot();
    await alice.create(root);
    const secret = `${root}/secret`;
    await alice.create(secret, Buffer.from('only alice'));
    // `auth` scheme = "whoever is authenticated on this session": it becomes digest:alice:<hash>.
    await alice.setAcl(secret, CREATOR_ALL_ACL);
    const { acl } = await alice.getAcl(secret);
    assert.equal(acl.length, 1);
    assert.equal(acl[0]!.scheme, 'digest');
    assert.match(acl[0]!.id, /^alice:/);
    assert.equal(acl[0]!.perms, ZK_PERMS.ALL);

    assert.equal((await alice.getData(secret)).data.toString(), 'only alice');
    await rejectsWith(anonymous.getData(secret), 'NOAUTH', 'getData', secret);
    await rejectsWith(anonymous.setData(secret, Buffer.from('x'), -1), 'NOAUTH', 'setData', secret);
    await rejectsWith(bob.getData(secret), 'NOAUTH', 'getData', secret);

    // CREATOR_ALL_ACL without any authenticated identity names nobody; an empty ACL neither.
    await rejectsWith(anonymous.setAcl(root, CREATOR_ALL_ACL), 'INVALIDACL', 'setAcl', root);
    await rejectsWith(alice.setAcl(root, []), 'INVALIDACL', 'setAcl', root);
  });

  it('maps CONNECTIONLOSS for a request in flight at a reset, OPERATIONTIMEOUT for one sent into a partition', async () => {
    const proxy = await proxied();
    const session = await pool.open({ connectString: proxy.connectString });
    const root = randomRoot();
    await session.create(root);

    // Held by the partition, so certainly in flight when the connection is reset.
    proxy.cut();
    const inFlight = session.getData(root);
    proxy.reset();
    const lost = await rejectsWith(withTimeout(inFlight, 2000, 'in-flight request not failed by the reset'), 'CONNECTIONLOSS', 'getData', root);
    assert.equal(lost.isConnectionError, true);
    assert.equal(lost.isSessionGone, false);
    proxy.restore();
    await withTimeout(session.waitForConnection(), 5000, 'no reconnection after the reset');
    assert.equal((await session.exists(root))?.ephemeralOwner, '0');

    // Sent into a partition: the client gives up on the connection after 2/3 of the timeout and
    // fails what it had sent with OPERATIONTIMEOUT, the C client's code for a timed-out connection
    // (ours uses it too).
    const recorder = new StateRecorder(session);
    proxy.cut();
    const timedOut = await rejectsWith(withTimeout(session.exists(root), 4000, 'request into a partition never failed'), 'OPERATIONTIMEOUT', 'exists', root);
    assert.equal(timedOut.isConnectionError, true);
    assert.equal(timedOut.isSessionGone, false);
    assert.ok(recorder.states.includes('suspended'), `suspended is reported (${recorder.states.join(' -> ')})`);
    proxy.restore();
    await withTimeout(session.waitForConnection(), 5000, 'no reconnection after the partition');
    assert.ok(await session.exists(root));
    recorder.stop();
  });

  it('maps SESSIONEXPIRED after expiry and fails requests on the dead handle as session-gone', async () => {
    const proxy = await proxied();
    const session = await pool.open({ connectString: proxy.connectString });
    const observer = await pool.open();
    const root = randomRoot();
    await session.create(root, null, 'ephemeral');
    const oldId = session.sessionId!;

    let duringExpiry: Promise<unknown> | undefined;
    const recorder = new StateRecorder(session, (change) => {
      // Between the expiry and its replacement the old session can answer nothing.
      if (change.state !== 'expired') return;
      duringExpiry = session.exists(root);
      duringExpiry.catch(() => undefined); // asserted below; not an unhandled rejection meanwhile
    });
    // Kept out by the proxy, so that it cannot take the session back before the second client's close.
    proxy.refuse(true);
    await expireFromSecondClient(oldId, session.sessionPassword!);
    await waitFor(async () => (await observer.exists(root)) === null, { timeoutMs: 5000, message: 'the server closed the session' });
    proxy.refuse(false);
    await recorder.waitFor('expired', 5000);
    // It names the node it was for, as every request error does.
    const expired = await rejectsWith(duringExpiry!, 'SESSIONEXPIRED', 'exists', root);
    assert.ok(expired.message.includes(root), expired.message);
    assert.equal(expired.isSessionGone, true);
    assert.equal(expired.isConnectionError, false);

    const replaced = await recorder.waitFor('connected', 5000);
    assert.deepEqual(recorder.states.slice(-2), ['expired', 'connected']);
    assert.notEqual(replaced.sessionId, oldId);
    assert.equal(session.sessionId, replaced.sessionId);
    assert.equal(await session.exists(root), null, 'requests work on the new session');
    recorder.stop();

    // A bare handle whose session is dead: it closes itself and then refuses every request.
    let queued!: Promise<unknown>;
    let dead!: SessionHandle;
    const closed = new Promise<number>((resolve) => {
      const client = openSessionHandle(
        { connectString: sharedConnectString(), sessionTimeoutMs: 2000, driver: TEST_DRIVER },
        { onConnected() {}, onConnecting() {}, onClosed: (code) => resolve(code) },
        { id: oldId, password: 'FF'.repeat(16) },
      );
      // Queued before the server's verdict: the package fails it with CLOSING when the handle dies;
      // the TypeScript driver with SESSIONEXPIRED, the verdict itself (as the Java client does).
      queued = client.exists('/');
      queued.catch(() => undefined); // asserted below
      dead = client;
    });
    try {
      assert.equal(await withTimeout(closed, 5000, 'dead session never reported'), -112);
      const pending = await rejectsWith(queued, TEST_DRIVER === 'native' ? 'CLOSING' : 'SESSIONEXPIRED', 'exists', '/');
      assert.equal(pending.isSessionGone, true);
      const after = await rejectsWith(dead.exists('/'), 'INVALIDSTATE', 'exists', '/');
      assert.equal(after.isSessionGone, true);
    } finally {
      dead.close();
    }
  });

  it('rejects with SessionClosedError after close', async () => {
    const session = await pool.open();
    const root = randomRoot();
    const inFlight = session.getData('/');
    inFlight.catch(() => undefined);
    session.close();
    assert.equal(session.state, 'closed');
    // A request still in flight at close() is settled, never left hanging: the package fails it as
    // CLOSING; the TypeScript driver sends closeSession behind it, and the server answers in order.
    const settled = withTimeout(inFlight, 2000, 'in-flight request hangs after close');
    if (TEST_DRIVER === 'native') assert.equal((await rejectsWith(settled, 'CLOSING', 'getData', '/')).isSessionGone, true);
    else assert.ok((await settled).stat, 'answered before the session ended');
    const requests = [() => session.create(root), () => session.getData(root), () => session.exists(root), () => session.delete(root), () => session.sync('/')];
    for (const request of requests) {
      await assert.rejects(request(), (error) => {
        assert.ok(error instanceof SessionClosedError, String(error));
        assert.equal(error.code, 'ZK_SESSION_CLOSED');
        const path = request === requests.at(-1) ? '/' : root;
        assert.equal(error.path, path, 'names the node of the request');
        assert.ok(error.message.includes(`${path}:`), error.message);
        return true;
      });
    }
    await assert.rejects(session.connect(), SessionClosedError);
    await assert.rejects(session.waitForConnection(), SessionClosedError);
  });
});
