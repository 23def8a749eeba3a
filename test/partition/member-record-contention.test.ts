/**
 * A replica's `handOver` writes its member node with a compare-and-set (read, merge the declined
 * partitions another writer added, write on the version read). A record that changes between
 * every read and write (an operator's tool, a script, another process writing it in a loop) must
 * not keep the replica retrying forever: like `requestHandOver`, it gives up after 5 tries, with a
 * typed error naming the node. The other writer is a second session on the real server; to make it
 * win every race rather than some, the replica's session is wrapped so that each read of its
 * member node is followed by that write before the replica sees the answer. The same wrapping puts
 * an operator's hand-over between the replica's read and its write once: the write keeps it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordContendedError } from '../../src/errors/record-contended.error.js';
import { requestHandOver } from '../../src/recipes/partition/hand-over-request.js';
import { parseMember } from '../../src/recipes/partition/partition-records.js';
import { PartitionSet } from '../../src/recipes/partition/partition-set.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { waitFor, withTimeout } from '../support/wait.js';

/** `session`, with each watchless read of a node under `members` followed by `interfere(path)` before it answers. */
function interfered(session: ZkSession, members: () => string, interfere: (path: string) => Promise<void>): { session: ZkSession; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(session, {
    get(target, property) {
      if (property === 'getData') {
        return async (path: string, watcher?: unknown) => {
          const read = await target.getData(path, watcher as never);
          if (watcher === undefined && path.startsWith(`${members()}/`)) {
            reads += 1;
            await interfere(path);
          }
          return read;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { session: proxy, reads: () => reads };
}

describe('a member node rewritten under every try of handOver', () => {
  it('gives up after 5 tries with RecordContendedError naming the node', async () => {
    const root = testRoot();
    const own = await openSession(sharedConnect());
    const other = await openSession(sharedConnect());
    let setPath = '';
    let interfering = true;
    const { session, reads } = interfered(
      own,
      () => `${setPath}/members`,
      async (path) => {
        if (!interfering) return;
        const { data } = await other.getData(path);
        await other.setData(path, data, -1); // the same record, a new version
      },
    );
    const set = new PartitionSet(session, { root, name: 'outbox', count: 2, identity: 'solo', logger: { warn() {}, error() {} } });
    setPath = set.path;
    set.start();
    try {
      await waitFor(() => set.ownedNow.length === 2, { message: 'both partitions owned' });
      const outcome = await withTimeout(
        set.handOver(0).then(
          () => 'resolved',
          (error: unknown) => error,
        ),
        10_000,
        'handOver neither resolved nor failed within 10 s',
      );
      assert.ok(outcome instanceof RecordContendedError, `handOver ended with ${String(outcome)}`);
      assert.equal(outcome.attempts, 5);
      assert.ok(outcome.path.startsWith(`${set.path}/members/m-`), outcome.path);
      assert.ok(outcome.message.includes(outcome.path), outcome.message);
      assert.equal(reads(), 5);
      // The failed request is forgotten: the next write of the record does not carry it.
      interfering = false;
      await set.handOver(1);
      const { data } = await other.getData(outcome.path);
      assert.deepEqual(parseMember(outcome.path, outcome.path.slice(outcome.path.lastIndexOf('/') + 1), data).declined, [1]);
    } finally {
      interfering = false; // a replica still retrying gets through, and can close
      await set.close();
      own.close();
      other.close();
    }
  });

  it("keeps a partition an operator declined between the replica's read and its write", async () => {
    const root = testRoot();
    const own = await openSession(sharedConnect());
    const operator = await openSession(sharedConnect());
    let setPath = '';
    let asking = true;
    const { session } = interfered(
      own,
      () => `${setPath}/members`,
      async () => {
        if (!asking) return;
        asking = false; // once: the replica's write fails on the version, and its next read sees the request
        assert.equal((await requestHandOver(operator, setPath, 0)).requested, true);
      },
    );
    const set = new PartitionSet(session, { root, name: 'outbox', count: 2, identity: 'solo', logger: { warn() {}, error() {} } });
    setPath = set.path;
    set.start();
    try {
      await waitFor(() => set.ownedNow.length === 2, { message: 'both partitions owned' });
      await set.handOver(1);
      assert.equal(asking, false);
      // Alone in the set, the replica keeps both partitions, and so both requests.
      const path = `${set.path}/members/${set.memberId!}`;
      assert.deepEqual(parseMember(path, set.memberId!, (await operator.getData(path)).data).declined, [0, 1]);
    } finally {
      await set.close();
      own.close();
      operator.close();
    }
  });
});
