/**
 * Issue 32: the dashboard on one persistent recursive watch over its root (`addWatch`), instead of
 * one one-shot watch per directory, each set again after it fires (a second listing of every
 * changed directory besides the reading's own). Counted on the dashboard's requests (its session
 * wrapped in a FaultySession) for the same settled changes, with the root watch and with the
 * one-shot watches the dashboard falls back to where persistent watches are unavailable (here a
 * session whose `addWatch` refuses as the `zookeeper` package's driver does). Also: the server
 * holds only the root watch while a page is open, and none once it closed; a change made while the
 * connection was down (which a server does not replay for a persistent watch) reaches the page
 * after the reconnection. Real server; the default driver (the native one has no addWatch).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DashboardView } from '../../src/dashboard/index.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { watchedBy } from '../support/server-watches.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { TEST_DRIVER } from '../support/test-driver.js';
import { waitFor } from '../support/wait.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { startDashboardApp } from './dashboard-app.js';
import { SseReader } from './sse-reader.js';
import { WithoutPersistentWatches } from './without-persistent-watches.js';

const lockOf = (message: { event: string; data: unknown }, name: string) => (message.event === 'view' ? (message.data as DashboardView).locks.find((l) => l.name === name) : undefined);

const CHANGES = 10;

/** The dashboard's requests for `CHANGES` settled changes of one lock (held, then released, by another session), a page open. */
async function requestsPerChange(persistent: boolean): Promise<{ perChange: number; watched: string[]; partitionReads: number }> {
  const root = testRoot();
  const { app, base, faulty, session } = await startDashboardApp(root, { wrap: persistent ? undefined : (session) => new WithoutPersistentWatches(session) });
  const other = await openSession(sharedConnect());
  const stream = await SseReader.open(`${base}/api/stream`);
  try {
    const locks = new LockClient(other, { root, identity: 'elsewhere' });
    await (await locks.acquire('job')).release(); // the lock's directory exists: the changes below are its queue's
    await stream.next((m) => lockOf(m, 'job')?.holder === null, 10_000, 'the lock shown');
    const watched = await watchedBy(sharedConnect(), session.sessionId!);
    const before = faulty.sent.length;
    for (let i = 0; i < CHANGES; i++) {
      const lease = await locks.acquire('job');
      await stream.next((m) => lockOf(m, 'job')?.holder?.identity === 'elsewhere', 10_000, `holder ${i} shown`);
      await lease.release();
      await stream.next((m) => lockOf(m, 'job')?.holder === null, 10_000, `release ${i} shown`);
    }
    const partitionReads = faulty.sent.slice(before).filter((request) => request.path.startsWith(`${root}/partitions`)).length;
    return { perChange: (faulty.sent.length - before) / (2 * CHANGES), watched, partitionReads };
  } finally {
    stream.close();
    other.close();
    await app.close();
  }
}

describe('the dashboard on one persistent recursive watch', { skip: TEST_DRIVER === 'native' ? 'the zookeeper package has no persistent watches (the fallback is measured here with the default driver)' : false }, () => {
  it('costs fewer requests per settled change than one-shot watches per directory, and the server holds the root watch alone', async (t) => {
    const oneShot = await requestsPerChange(false);
    const rootWatch = await requestsPerChange(true);
    t.diagnostic(`requests per settled change: one-shot watches ${oneShot.perChange}, root watch ${rootWatch.perChange}; watched paths: ${oneShot.watched.length} and ${rootWatch.watched.length}`);
    assert.ok(rootWatch.perChange < oneShot.perChange, `${rootWatch.perChange} with the root watch, ${oneShot.perChange} without`);
    assert.equal(rootWatch.watched.length, 1, rootWatch.watched.join(', '));
    assert.ok(oneShot.watched.length > 1, oneShot.watched.join(', '));
    // The page shows no partition set: reading a lock's change reads none (it read the set of the lock's name too).
    assert.deepEqual([oneShot.partitionReads, rootWatch.partitionReads], [0, 0], 'requests for partition sets');
  });

  it('removes the root watch once the last page closed', async () => {
    const root = testRoot();
    const { app, base, session } = await startDashboardApp(root);
    try {
      const stream = await SseReader.open(`${base}/api/stream`);
      await stream.next((m) => m.event === 'view', 10_000, 'the first view');
      assert.deepEqual(await watchedBy(sharedConnect(), session.sessionId!), [root]);
      stream.close();
      await waitFor(async () => (await watchedBy(sharedConnect(), session.sessionId!)).length === 0, { timeoutMs: 5000, message: 'no watch left once the page closed' });
      assert.equal(session.watcherCount, 0);
    } finally {
      await app.close();
    }
  });

  it('shows a change made while its connection was down, once it is back (no replay for a persistent watch)', async () => {
    const root = testRoot();
    const [host, port] = sharedConnect().split(',')[0]!.split(':');
    const proxy = await TcpProxy.start(host!, Number(port));
    const { app, base, session } = await startDashboardApp(root, { connect: proxy.connectString });
    const other = await openSession(sharedConnect());
    const stream = await SseReader.open(`${base}/api/stream`);
    try {
      const locks = new LockClient(other, { root, identity: 'elsewhere' });
      await (await locks.acquire('job')).release();
      await stream.next((m) => lockOf(m, 'job')?.holder === null, 10_000, 'the lock shown');
      const id = session.sessionId;
      proxy.refuse(true);
      proxy.reset();
      await waitFor(() => session.state === 'suspended', { timeoutMs: 5000, message: 'disconnected' });
      const lease = await locks.acquire('job'); // while the dashboard's connection is down
      proxy.refuse(false);
      await waitFor(() => session.state === 'reconnected', { timeoutMs: 10_000, message: 'reconnected' });
      assert.equal(session.sessionId, id, 'the same session');
      await stream.next((m) => lockOf(m, 'job')?.holder?.identity === 'elsewhere', 10_000, 'the holder taken while disconnected shown');
      await lease.release();
    } finally {
      stream.close();
      other.close();
      await app.close();
      await proxy.close();
    }
  });
});
