/**
 * 1,000 waiters that give up (abort) leave no watch behind, on the client or the server. Each
 * aborted waiter's own node goes at once (firing the watch on it), and the default driver removes
 * the first waiter's watch on the holder with `removeWatches` (issue 32): nothing is left while the
 * holder still holds. The `zookeeper` package (`ZK_TEST_DRIVER=native`) has no removeWatches, so
 * there that one watch stays until the holder releases. Counted with `ZkSession.watcherCount` and
 * the server's `wchp` (watches by path, filtered to this test's root).
 */
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { LockAbortedError } from '../../src/errors/lock-aborted.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { TEST_DRIVER } from '../support/test-driver.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { fourLetterWord } from '../support/zk-server.js';
import { openSession, queueNodes, sharedConnect, testRoot } from './lock-test-kit.js';

const WAITERS = 1000;

/** Server-side watches on paths under `root` (one per session and path). */
async function serverWatches(root: string): Promise<number> {
  const [host, port] = sharedConnect().split(',')[0]!.split(':');
  let count = 0;
  let inRoot = false;
  for (const line of (await fourLetterWord(host!, Number(port), 'wchp', 5000)).split('\n')) {
    if (line.startsWith('/')) inRoot = line.startsWith(`${root}/`);
    else if (inRoot && /^\s+0x[0-9a-f]+/.test(line)) count += 1;
  }
  return count;
}

describe('watches of aborted waiters', () => {
  let holderSession: ZkSession;
  let waiterSession: ZkSession;
  before(async () => {
    [holderSession, waiterSession] = await Promise.all([openSession(sharedConnect()), openSession(sharedConnect(), 10_000)]);
  });
  after(() => {
    holderSession?.close();
    waiterSession?.close();
  });

  it(`${WAITERS} waiters acquire and abort: client and server watches return to baseline once the holder releases`, async () => {
    const root = testRoot();
    const holder = new LockClient(holderSession, { root });
    const waiters = new LockClient(waiterSession, { root });
    const dir = holder.pathOf('busy');
    const baseline = { client: waiterSession.watcherCount, server: await serverWatches(root) };
    assert.deepEqual(baseline, { client: 0, server: 0 });

    const lease = await holder.acquire('busy');
    const abort = new AbortController();
    setMaxListeners(2 * WAITERS, abort.signal); // one signal shared by every waiter on purpose
    const outcomes = Array.from({ length: WAITERS }, () =>
      waiters.acquire('busy', { signal: abort.signal }).then(
        () => 'granted',
        (error: unknown) => (error instanceof LockAbortedError ? 'aborted' : String(error)),
      ),
    );
    // Each waiter watches exactly its predecessor; the one right behind the holder also its own node,
    // where the driver can remove that watch again (the hand-off's proof, `HandOff`).
    const watching = WAITERS + (TEST_DRIVER === 'native' ? 0 : 1);
    const states: string[] = [];
    const stateLog = waiterSession.state$.subscribe((change) => states.push(change.state));
    await waitFor(() => waiterSession.watcherCount === watching, { timeoutMs: 15_000, message: `${watching} watches set` }).catch((error: Error) => {
      throw new Error(`${error.message} (${waiterSession.watcherCount} set; waiter session: ${states.join(' -> ')})`);
    });
    stateLog.unsubscribe();
    const whileWaiting = { client: waiterSession.watcherCount, server: await serverWatches(root) };
    // On the server one session watches a node once: the first waiter's watch on its own node is
    // the second waiter's on its predecessor.
    assert.deepEqual(whileWaiting, { client: watching, server: WAITERS });

    abort.abort();
    const results = await withTimeout(Promise.all(outcomes), 15_000, 'aborts settled');
    assert.deepEqual([...new Set(results)], ['aborted']);
    assert.deepEqual(await queueNodes(holderSession, dir), [lease.path.slice(dir.length + 1)], 'no waiter node left');
    // Every aborted waiter's node is gone, which fired the watch on it; the first waiter's watch on
    // the holder's node was removed, or, on the native driver, stays until the holder releases.
    const left = TEST_DRIVER === 'native' ? 1 : 0;
    await waitFor(async () => waiterSession.watcherCount === left && (await serverWatches(root)) === left, { timeoutMs: 5000, message: `${left} watch(es) left on the holder` });
    const afterAborts = { client: waiterSession.watcherCount, server: await serverWatches(root) };
    assert.deepEqual(afterAborts, { client: left, server: left });

    await lease.release();
    await waitFor(async () => waiterSession.watcherCount === 0 && (await serverWatches(root)) === 0, { timeoutMs: 5000, message: 'watches back at baseline' });
    const final = { client: waiterSession.watcherCount, server: await serverWatches(root) };
    assert.deepEqual(final, baseline);
    console.log(`watches: baseline ${JSON.stringify(baseline)}, waiting ${JSON.stringify(whileWaiting)}, after aborts ${JSON.stringify(afterAborts)}, after release ${JSON.stringify(final)}`);
  });
});
