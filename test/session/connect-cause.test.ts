/**
 * A start-up that cannot connect says why: the `ConnectTimeoutError` names the cause that a fresh
 * attempt met (connection refused, host not found) in its message and carries it as `cause`, so
 * that a wrong port, a down server and a typo in the host name are told apart without turning on
 * the C client's stderr log. And a Nest application whose start-up failed that way exits by itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConnectTimeoutError } from '../../src/errors/connect-timeout.error.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { withTimeout } from '../support/wait.js';
import { freePorts } from '../support/zk-server.js';
import { runFixture } from '../fixtures/session-helpers.js';
import { withTestDriver } from '../support/test-driver.js';

async function connectError(connectString: string): Promise<ConnectTimeoutError> {
  const logged: string[] = [];
  const logger = { log: (m: string) => logged.push(m), warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
  const session = new ZkSession(withTestDriver({ connectString, sessionTimeoutMs: 2000, connectTimeoutMs: 500, logger }));
  const error = await withTimeout(session.connect(), 5000, 'connect() outlived its bound').then(
    () => assert.fail(`connected to ${connectString}`),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ConnectTimeoutError, String(error));
  assert.equal(session.state, 'closed');
  assert.ok(logged.some((line) => line.includes(`Connecting to ZooKeeper at ${connectString}`)), `logs whom it connects to: ${logged.join(' | ')}`);
  return error;
}

describe('ZkSession.connect failure causes', () => {
  it('names a refused port in the message and the cause', async () => {
    const [port] = await freePorts(1); // closed again: connections are refused
    const error = await connectError(`127.0.0.1:${port}`);
    assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}: connection refused`));
    assert.equal((error.cause as NodeJS.ErrnoException | undefined)?.code, 'ECONNREFUSED');
  });

  it('names an unresolvable host in the message and the cause', async () => {
    const error = await connectError('zk-no-such-host.invalid:2181');
    assert.match(error.message, /zk-no-such-host\.invalid:2181: cannot resolve the host name/);
    // ETIMEDOUT: a resolver that does not answer within the diagnosis's bound (a machine without DNS).
    assert.match(String((error.cause as NodeJS.ErrnoException | undefined)?.code), /^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|ETIMEDOUT)$/);
  });

  it('names each server of a multi-server connect string', async () => {
    const [port] = await freePorts(1);
    const error = await connectError(`127.0.0.1:${port},zk-no-such-host.invalid:2181`);
    assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}: connection refused`));
    assert.match(error.message, /zk-no-such-host\.invalid:2181: cannot resolve the host name/);
    assert.ok(error.cause instanceof AggregateError);
    assert.equal(error.cause.errors.length, 2);
  });

  it('lets a Nest application whose start-up could not connect exit by itself, saying why', async () => {
    const [port] = await freePorts(1);
    const child = runFixture('session-exit', ['nest-connect-fail', `127.0.0.1:${port}`, '500']);
    try {
      const exit = await withTimeout(child.exited, 15_000, `the process did not exit by itself (lines: ${child.lines.join(' | ')})`);
      assert.equal(exit.code, 0, child.stderr());
      const [line] = child.lines.map((l) => JSON.parse(l) as { event: string; name: string; message: string });
      assert.equal(line?.event, 'rejected');
      assert.equal(line.name, 'ConnectTimeoutError');
      assert.match(line.message, /connection refused/);
    } finally {
      child.kill();
    }
  });
});
