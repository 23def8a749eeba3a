/**
 * Under a test runner (Jest, Vitest, `node --test`) a missing server fails start-up before the
 * runner's own hook timeout (Jest's is 5 s): the default connect timeout is shorter there, the
 * first log line names the servers waited for and says why the timeout is what it is, the
 * `ConnectTimeoutError` reaches the test, and nothing keeps the process alive afterwards.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
import { testRunnerOf } from '../../src/zk-lock.test-runner.js';
import { runFixture } from '../fixtures/session-helpers.js';
import { withTimeout } from '../support/wait.js';
import { freePorts } from '../support/zk-server.js';

/** The default connect timeout under a test runner, as the README states it. */
const UNDER_TEST_RUNNER_MS = 2000;

/** This process's environment without the marks of any test runner (`node --test` sets NODE_TEST_CONTEXT in ours). */
function outsideAnyRunner(): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _node, JEST_WORKER_ID: _jest, VITEST: _vitest, ...env } = process.env;
  return env;
}

describe('the default connect timeout under a test runner', () => {
  for (const [runner, mark] of [['Jest', { JEST_WORKER_ID: '1' }], ['Vitest', { VITEST: 'true' }], ['node --test', { NODE_TEST_CONTEXT: 'child-v8' }]] as const) {
    it(`a Nest app under ${runner} without a server fails with ConnectTimeoutError after ${UNDER_TEST_RUNNER_MS} ms, says so at once, and exits by itself`, async () => {
      const [port] = await freePorts(1);
      const child = runFixture('session-exit', ['nest-default-timeout', `127.0.0.1:${port}`], { ...outsideAnyRunner(), ...mark });
      try {
        // Bounds the wait only: the default outside a test runner (15 s) would outlast it.
        const exit = await withTimeout(child.exited, 12_000, `the process did not exit by itself (lines: ${child.lines.join(' | ')})`);
        assert.equal(exit.code, 0, child.stderr());
        const lines = child.lines.map((line) => JSON.parse(line) as { event: string; message?: string; name?: string; timeoutMs?: number });
        const first = lines.find((line) => line.event === 'log')?.message ?? '';
        assert.match(first, new RegExp(`127\\.0\\.0\\.1:${port}`), 'the first log line names the server waited for');
        assert.match(first, new RegExp(`up to ${UNDER_TEST_RUNNER_MS} ms`));
        assert.match(first, /test runner/);
        assert.deepEqual(lines.at(-1), { event: 'rejected', name: 'ConnectTimeoutError', timeoutMs: UNDER_TEST_RUNNER_MS });
      } finally {
        child.kill();
      }
    });
  }

  it('is told by the runners\' environment variables, and an explicit connectTimeoutMs wins', () => {
    assert.equal(testRunnerOf({}), undefined);
    assert.equal(testRunnerOf({ JEST_WORKER_ID: '3' }), 'JEST_WORKER_ID');
    assert.equal(testRunnerOf({ VITEST: 'true' }), 'VITEST');
    assert.equal(testRunnerOf({ NODE_TEST_CONTEXT: 'child-v8' }), 'NODE_TEST_CONTEXT');
    assert.equal(testRunnerOf({ JEST_WORKER_ID: '' }), undefined);
    // This file runs under `node --test`.
    assert.equal(resolveZkLockOptions({ connect: '127.0.0.1:2181' }).connectTimeoutMs, UNDER_TEST_RUNNER_MS);
    assert.equal(resolveZkLockOptions({ connect: '127.0.0.1:2181', connectTimeoutMs: 15_000 }).connectTimeoutMs, 15_000);
  });
});
