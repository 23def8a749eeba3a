/**
 * The chaos run's end state against the shared test server: what it reports as orphans under every
 * lock's directory, every read/write lock's and every semaphore's, and the partition set's, and what
 * it leaves alone (directories, ready records, which it reports apart).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { ensurePath } from '../../src/recipes/queue/ensure-path.js';
import { SessionPool, randomRoot, sharedConnectString } from '../fixtures/session-helpers.js';
import { inspectEndState } from './end-state.js';

describe('chaos end state', () => {
  const sessions = new SessionPool();
  after(() => sessions.closeAll());

  it('reports every node left in a lock, read/write lock, semaphore or partition set directory, and the partitions\' ready records', async () => {
    const session = await sessions.open();
    const root = randomRoot();
    const node = (marker: string, seq: number) => `_c_${randomUUID()}-${marker}-${String(seq).padStart(10, '0')}`;
    const left = [
      `${root}/locks/aux-1/${node('lock', 1)}`,
      `${root}/rwlocks/shelf/${node('read', 2)}`,
      `${root}/rwlocks/shelf/${node('write', 3)}`,
      `${root}/semaphores/pool/${node('2of3', 4)}`,
      // The partition set's: a partition lock's queue node, the assigner election's, a member node.
      `${root}/partitions/shards/locks/3/${node('lock', 5)}`,
      `${root}/partitions/shards/elections/assigner/${node('n', 6)}`,
      `${root}/partitions/shards/members/m-${randomUUID()}`,
    ];
    for (const path of left) {
      await ensurePath(session, path.slice(0, path.lastIndexOf('/')), 'persistent');
      await session.create(path, null, 'persistent');
    }
    await session.create(`${root}/locks/aux-1/ready`, Buffer.from(JSON.stringify({ state: 'ready', token: '1' })), 'persistent');
    await ensurePath(session, `${root}/semaphores/empty`, 'persistent');
    await ensurePath(session, `${root}/elections/chaos`, 'persistent');
    await session.create(`${root}/elections/chaos/ready`, Buffer.from(JSON.stringify({ state: 'dirty', token: '7' })), 'persistent');

    await session.create(`${root}/partitions/shards/locks/3/ready`, Buffer.from(JSON.stringify({ state: 'dirty', token: '9' })), 'persistent');
    await ensurePath(session, `${root}/partitions/shards/locks/4`, 'persistent');

    const end = await inspectEndState(sharedConnectString(), root, 0);
    assert.deepEqual([...end.orphans].sort(), [...left].sort());
    assert.deepEqual(end.partitionReady, { 3: { state: 'dirty', token: '9' } });
    assert.deepEqual(end.electionReady, { state: 'dirty', token: '7' });
    assert.equal(end.lockReady, undefined);
  });

  it('reports nothing for a root the run never used', async () => {
    const end = await inspectEndState(sharedConnectString(), randomRoot(), 0);
    assert.deepEqual(end.orphans, []);
  });
});
