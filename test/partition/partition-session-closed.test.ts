/**
 * A session closed under a partition set that is still open (the application closed it first):
 * the set's partitions are lost, and it does not queue for them again and again on a session that
 * can never answer (each try would fail at once: a busy loop).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PartitionSet } from '../../src/recipes/partition/partition-set.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { sleep, waitFor } from '../support/wait.js';

describe('a partition set whose session is closed first', () => {
  it('loses its partitions and stops queueing for them', async () => {
    const session = await openSession(sharedConnect());
    let waits = 0;
    const events = {
      wants: () => true,
      emit: (_channel: string, event: object) => void ((event as { type: string }).type === 'lock.wait-started' && (waits += 1)),
    };
    const set = new PartitionSet(session, { root: testRoot(), name: 'outbox', count: 4, identity: 'solo', events, logger: { warn() {}, error() {} } });
    set.start();
    try {
      await waitFor(() => set.ownedNow.length === 4, { message: 'all 4 owned' });
      const before = waits;
      session.close();
      await waitFor(() => set.ownedNow.length === 0, { message: 'all lost' });
      // An absence can only be watched for a while: long enough for a busy loop to show thousands.
      await sleep(500);
      assert.ok(waits - before <= 4, `${waits - before} acquisitions after the session closed`);
    } finally {
      await set.close();
    }
  });
});
