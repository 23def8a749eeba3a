/**
 * The connect timeout's default under a test runner. Jest fails a hook after 5 s by default, so
 * with the production default (15 s) a missing server showed up as a hook timeout, the useful
 * `ConnectTimeoutError` came too late to be reported, and the pending connect kept Jest from
 * exiting. Under a runner the default is short enough that the error, with the few seconds its
 * diagnosis of each server takes, reaches the test first. An explicit `connectTimeoutMs` wins.
 */

/** The environment variables that Jest (`JEST_WORKER_ID`), Vitest (`VITEST`) and `node --test` (`NODE_TEST_CONTEXT`) set in the processes that run tests. */
export const TEST_RUNNER_MARKS = ['JEST_WORKER_ID', 'VITEST', 'NODE_TEST_CONTEXT'] as const;

/** Default `connectTimeoutMs` under a test runner: with the diagnosis after it (at most as long again), under Jest's 5 s hook timeout. */
export const TEST_RUNNER_CONNECT_TIMEOUT_MS = 2000;

/** The variable that says this process runs tests, if one does. */
export function testRunnerOf(env: NodeJS.ProcessEnv): (typeof TEST_RUNNER_MARKS)[number] | undefined {
  return TEST_RUNNER_MARKS.find((mark) => env[mark] !== undefined && env[mark] !== '');
}
