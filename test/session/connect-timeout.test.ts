/**
 * `connect()` to an address where nothing listens fails with `ConnectTimeoutError` within its
 * bound, ends in `closed`, and leaves nothing running (checked in a child process, since the
 * native handle is invisible to `getActiveResourcesInfo`: an open one keeps a process alive).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConnectTimeoutError } from '../../src/errors/connect-timeout.error.js';
import { ZkLockError } from '../../src/errors/zk-lock.error.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { withTimeout } from '../support/wait.js';
import { freePorts } from '../support/zk-server.js';
import { runFixture, StateRecorder } from '../fixtures/session-helpers.js';
import { withTestDriver } from '../support/test-driver.js';

/** Resource types by count, e.g. { Timeout: 2, TCPSocketWrap: 1 }. */
function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

describe('ZkSession.connect on a dead address', () => {
  it('rejects with ConnectTimeoutError within its bound and ends closed', async () => {
    const [port] = await freePorts(1);
    const connectString = `127.0.0.1:${port}`;
    const before = resourceCounts();
    const session = new ZkSession(withTestDriver({ connectString, sessionTimeoutMs: 2000, connectTimeoutMs: 1000 }));
    const recorder = new StateRecorder(session);

    const error = await withTimeout(session.connect(), 3000, 'connect() outlived its bound').then(
      () => assert.fail('connected to a dead address'),
      (error: unknown) => error,
    );
    assert.ok(error instanceof ConnectTimeoutError, String(error));
    assert.ok(error instanceof ZkLockError);
    assert.equal(error.code, 'ZK_CONNECT_TIMEOUT');
    assert.equal(error.connectString, connectString);
    assert.equal(error.timeoutMs, 1000);
    assert.equal(session.state, 'closed');
    assert.deepEqual(recorder.states, ['closed'], 'never connected, closed once');
    assert.equal(recorder.initial.state, 'connecting');

    // Node-level resources (timers, sockets) are back to what they were.
    for (const [type, count] of resourceCounts()) assert.ok(count <= (before.get(type) ?? 0), `leaked ${type}`);
  });

  it('leaves no handle that keeps the process alive', async () => {
    const [port] = await freePorts(1);
    const child = runFixture('session-exit', ['connect-timeout', `127.0.0.1:${port}`, '500']);
    try {
      const exit = await withTimeout(child.exited, 10_000, `the process did not exit by itself (lines: ${child.lines.join(' | ')})`);
      assert.equal(exit.code, 0, child.stderr());
      assert.deepEqual(child.lines.map((line) => JSON.parse(line)), [{ event: 'rejected', name: 'ConnectTimeoutError', state: 'closed' }]);
    } finally {
      child.kill();
    }
  });
});
