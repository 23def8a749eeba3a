/**
 * A server restart shorter than the session timeout: the session is suspended, then reconnected
 * with the same id, and its ephemeral node survives (the server restores sessions from its log).
 * Plus reconnecting while a child process that was spawned during the session is alive: a known
 * failure of the `zookeeper` package (on the native driver, skipped unless its client is rebuilt).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TcpProxy } from '../support/tcp-proxy.js';
import { TEST_DRIVER } from '../support/test-driver.js';
import { ZkServer } from '../support/zk-server.js';
import { firstHostPort, randomRoot, SessionPool, sharedConnectString, StateRecorder } from '../fixtures/session-helpers.js';

describe('ZkSession across a server restart', () => {
  let server: ZkServer;
  const pool = new SessionPool();
  before(async () => { server = await ZkServer.start({ heap: '128m' }); });
  after(async () => {
    pool.closeAll();
    await server?.dispose();
  });

  it('goes suspended -> reconnected with the same session and keeps its ephemeral node', async () => {
    // 8 s: after a refused connection the package retries only every third of the timeout, and
    // the restart must fit in before the loss clock's deadline (timeout - margin).
    const session = await pool.open({ connectString: server.connectString, sessionTimeoutMs: 8000 });
    assert.equal(session.sessionTimeoutMs, 8000, 'the server granted the requested timeout');
    const id = session.sessionId!;
    const root = randomRoot();
    await session.create(root);
    await session.create(`${root}/eph`, null, 'ephemeral');
    const recorder = new StateRecorder(session);

    // A fresh answer right before the outage: the loss clock then counts a full timeout from here,
    // not from 2/3 of a timeout before the disconnect (what it must assume after an idle spell).
    await session.sync('/');
    await server.stop();
    await recorder.waitFor('suspended', 5000);
    await server.restart();
    await recorder.waitFor('reconnected', 10_000);

    assert.deepEqual(recorder.states, ['suspended', 'reconnected']);
    for (const change of recorder.changes) assert.equal(change.sessionId, id);
    assert.equal(session.sessionId, id);
    assert.equal((await session.exists(`${root}/eph`))?.ephemeralOwner, id, 'the ephemeral node survived');
    recorder.stop();
  });

  // The package builds the C client without SOCK_CLOEXEC: a child spawned while connected inherits
  // the socket, so closing it does not release it and epoll keeps reporting the dead connection
  // under the fd number that the client's next socket reuses. The package's binding then reads
  // nothing 11 times and closes the handle with the *expired* code although the session is alive,
  // and every later handle on that fd number fails the same way while the child lives.
  // The TypeScript driver's sockets are Node's, opened close-on-exec: it always runs there. On the
  // native driver it runs against a client built with close-on-exec sockets (README, "Known
  // limitation"), and is skipped, saying why, against the package as published.
  it('reconnects while a child spawned during the session is alive', {
    skip: TEST_DRIVER === 'native' && !clientHasCloexecSockets() && 'native driver: the zookeeper package was built without --with-sock-cloexec (see README)',
  }, async () => {
    const { host, port } = firstHostPort(sharedConnectString());
    const proxy = await TcpProxy.start(host, port);
    const session = await pool.open({ connectString: proxy.connectString, sessionTimeoutMs: 4000 });
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      const id = session.sessionId;
      const recorder = new StateRecorder(session);
      proxy.reset();
      await recorder.waitFor('reconnected', 3000);
      assert.deepEqual(recorder.states, ['suspended', 'reconnected']);
      assert.equal(session.sessionId, id);
      recorder.stop();
    } finally {
      child.kill('SIGKILL');
      await proxy.close();
      session.close();
    }
  });
});

/** Whether the installed C client was configured with `--with-sock-cloexec`. */
function clientHasCloexecSockets(): boolean {
  const require = createRequire(import.meta.url);
  const config = path.join(path.dirname(require.resolve('zookeeper/package.json')), 'deps/zookeeper-client-c/config.h');
  return fs.existsSync(config) && /^#define SOCK_CLOEXEC_ENABLED 1/m.test(fs.readFileSync(config, 'utf8'));
}
