/**
 * `listingToken`, the C client's way to its node's token without reading the node, against the
 * real server's arithmetic: a listing's `cversion` and `numChildren` show whether any node was
 * created after ours (deletions do not count), and when none was, its `pzxid` lies at or after our
 * create and before the next node's, as our czxid does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listingToken } from '../../src/recipes/fencing.js';
import { parseQueueNode } from '../../src/recipes/queue/queue-node.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { basenameOf } from '../../src/zookeeper/znode-path.js';
import { openSession, sharedConnect, testRoot } from './lock-test-kit.js';

describe('listingToken', () => {
  let session: ZkSession;
  before(async () => {
    session = await openSession(sharedConnect());
  });
  after(() => session.close());

  it('gives a token while no node was created after ours, deletions included, and none once one was', async () => {
    const root = testRoot();
    await session.create(root, null, 'persistent');
    const dir = `${root}/q`;
    await session.create(dir, null, 'persistent');
    const node = (name: string) => `${dir}/_c_00000000-0000-4000-8000-00000000000${name}-lock-`;
    const sequenceOf = (path: string) => parseQueueNode(basenameOf(path), 'lock')!.sequence;
    const czxidOf = async (path: string) => (await session.exists(path))!.czxid;
    const tokenNow = async (ours: string) => listingToken((await session.getChildren(dir)).stat, sequenceOf(ours));

    // Children created and deleted before ours, and one still there ahead of it.
    await session.delete(await session.create(node('1'), null, 'ephemeral_sequential'), -1);
    const ahead = await session.create(node('2'), null, 'ephemeral_sequential');
    const ours = await session.create(node('3'), null, 'ephemeral_sequential');
    assert.equal(await tokenNow(ours), await czxidOf(ours), 'nothing since our create: the pzxid is our czxid');

    await session.delete(ahead, -1); // a deletion after ours moves pzxid, and is no create
    const afterDeletion = await tokenNow(ours);
    assert.ok(afterDeletion !== undefined && afterDeletion > (await czxidOf(ours)), `a deletion since: ${afterDeletion}`);

    const behind = await session.create(node('4'), null, 'ephemeral_sequential');
    assert.ok(afterDeletion < (await czxidOf(behind)), 'still below the next node created');
    assert.equal(await tokenNow(ours), undefined, 'a node created after ours: no token from the listing');
    await session.delete(behind, -1);
    assert.equal(await tokenNow(ours), undefined, 'nor once it is gone again');
  });
});
