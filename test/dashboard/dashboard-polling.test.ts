/**
 * `GET api/state` polled with no page open (issue 29, item 8 of the review). The dashboard reads
 * through the application's session, whose requests ZooKeeper executes in order: a reading of the
 * whole root per call would sit in that queue ahead of the locks' deletes and grants, so the
 * hand-over of a lock would wait for however many pollers there are. Counted here, on the
 * dashboard's requests (its session is wrapped in a FaultySession): concurrent first calls share
 * one reading, and while a lock of the application is handed over under 8 pollers, no call reads
 * the root again; what the dashboard sends is the re-reading of the lock that changed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DashboardView } from '../../src/dashboard/index.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { LockService } from '../../src/services/lock.service.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { startDashboardApp } from './dashboard-app.js';

/** Locks held elsewhere, so that a reading of the root is worth counting. */
const OTHER_LOCKS = 20;
const POLLERS = 8;
/** Calls each poller makes at least, the hand-over happening among them. */
const CALLS_EACH = 10;

describe('api/state polled while a lock is handed over', () => {
  it('shares one reading among concurrent calls and reads the root no more while polled: requests follow changes, not calls', async (t) => {
    const root = testRoot();
    const { app, base, faulty } = await startDashboardApp(root);
    const state = async () => ((await (await fetch(`${base}/api/state`, { signal: AbortSignal.timeout(10_000) })).json()) as { view: DashboardView }).view;
    /** The dashboard's listings of the locks' category directory since `since`: one per reading of the root. */
    const rootReadings = (since: number) => faulty.sent.slice(since).filter((r) => r.op === 'getChildren' && r.path === `${root}/locks`).length;
    const other = await openSession(sharedConnect());
    const locks = app.get(LockService);
    try {
      const elsewhere = new LockClient(other, { root, identity: 'elsewhere' });
      for (let i = 0; i < OTHER_LOCKS; i += 1) await elsewhere.acquire(`entity-${i}`);
      // The application's own lock: a holder, and a waiter queued behind it (one session: theirs and the dashboard's).
      let letGo!: () => void;
      const holding = locks.withLock('job', () => new Promise<void>((resolve) => (letGo = resolve)));
      await waitFor(() => letGo !== undefined, { timeoutMs: 10_000, message: 'the first call holds job' });
      const next = locks.withLock('job', (held) => held.fencingToken);

      // No page open: concurrent first calls.
      const first = await Promise.all(Array.from({ length: POLLERS }, () => state()));
      const firstReadings = rootReadings(0);
      const firstRequests = faulty.sent.length;
      assert.ok(first.every((view) => view.locks.length === OTHER_LOCKS + 1), 'every call sees every lock');

      // Pollers in a loop; the hand-over happens once each has made 3 calls.
      let calls = 0;
      let handedOver = false;
      const made = Array.from({ length: POLLERS }, () => 0);
      const pollers = made.map(async (_, i) => {
        while (!handedOver || made[i]! < CALLS_EACH) {
          await state();
          made[i]! += 1;
          calls += 1;
        }
      });
      await waitFor(() => made.every((n) => n >= 3), { timeoutMs: 20_000, message: 'every poller polling' });
      letGo();
      await withTimeout(holding, 10_000, 'the first call ends');
      const token = await withTimeout(next, 10_000, 'the waiter is granted');
      handedOver = true;
      await withTimeout(Promise.all(pollers), 30_000, 'the pollers end');
      await waitFor(async () => (await state()).locks.find((l) => l.name === 'job')?.holder === null, { timeoutMs: 10_000, message: 'the hand-over and the release shown' });

      const pollingReadings = rootReadings(firstRequests);
      const pollingRequests = faulty.sent.length - firstRequests;
      const counts = `${POLLERS} concurrent first calls: ${firstReadings} reading(s) of the root, ${firstRequests} requests; then ${calls} calls during the hand-over: ${pollingReadings} reading(s) of the root, ${pollingRequests} requests`;
      t.diagnostic(counts);
      assert.ok(token > 0n, 'the waiter holds with a fencing token');
      assert.equal(firstReadings, 1, counts);
      assert.equal(pollingReadings, 0, counts);
      // What changed is `job` (a waiter queued, the holder left, the waiter left): a few re-readings of it, whatever the calls.
      assert.ok(pollingRequests <= 40 && pollingRequests < calls / 2, counts);
    } finally {
      other.close();
      await app.close();
    }
  });
});
