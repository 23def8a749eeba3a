/**
 * A reading of the dashboard that fails (issue 20: it keeps working through connection loss).
 * A change below the root is seen (by the root watch, or by the one-shot watch on the lock's
 * directory where persistent watches are unavailable), the name is read again, and that reading's
 * listing fails (with one-shot watches: after the new watch was set, as when the connection drops
 * between the two): the change must still reach the page, from a reading tried again. The
 * dashboard's session is wrapped (DASHBOARD_SESSION) in a FaultySession over the real one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DashboardView } from '../../src/dashboard/index.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { connectionLoss } from '../support/faulty-session.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { startDashboardApp } from './dashboard-app.js';
import { SseReader, type SseMessage } from './sse-reader.js';
import { WithoutPersistentWatches } from './without-persistent-watches.js';

/**
 * A change seen (by the root watch, or with `oneShot` by the one-shot watch on the lock's
 * directory), then the listing of the reading it causes fails: with one-shot watches the second
 * listing after the change, since the first sets the watch again.
 */
async function changeAfterFailedReading(oneShot: boolean): Promise<void> {
  const failing = oneShot ? 2 : 1;
  const root = testRoot();
  const { app, base, faulty } = await startDashboardApp(root, { wrap: oneShot ? (session) => new WithoutPersistentWatches(session) : undefined });
  const other = await openSession(sharedConnect());
  const stream = await SseReader.open(`${base}/api/stream`);
  try {
    const held = await new LockClient(other, { root, identity: 'elsewhere' }).acquire('invoice');
    const holderOf = (m: SseMessage) => (m.data as DashboardView).locks.find((l) => l.name === 'invoice')?.holder;
    await stream.next((m) => m.event === 'view' && holderOf(m)?.identity === 'elsewhere', 10_000, 'the holder shown');
    const dir = `${root}/locks/invoice`;
    let listings = 0;
    faulty.after('getChildren', (request) => (request.path === dir && ++listings === failing ? { ok: false, error: connectionLoss('getChildren', dir) } : undefined));
    await held.release();
    await stream.next((m) => m.event === 'view' && holderOf(m) === null, 10_000, 'the release, from the reading tried again');
    assert.ok(listings > failing, `the directory was listed again after the failure (${listings} listings)`);
  } finally {
    stream.close();
    other.close();
    await app.close();
  }
}

describe('the dashboard when a reading fails', () => {
  it('reads the name again: the change whose reading failed still reaches the page (the root watch)', () => changeAfterFailedReading(false));
  it('reads the name again: the change whose reading failed still reaches the page (one-shot watches)', () => changeAfterFailedReading(true));
});
