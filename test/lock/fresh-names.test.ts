/**
 * The fresh-name path (issue 19): per-entity locks mostly meet a lock directory that does not
 * exist yet, or one the server swept as an empty container. Our node's create and the listing go
 * out together; when they find no directory, the directory's create, our node's and the listing
 * go out together (one session's requests run in order): two round trips for a fresh name, one
 * for a name whose directory exists, whoever made it, and no write spent on a directory create then.
 * Request counts come from a FaultySession wrapper without faults, on the shared server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { ensurePath } from '../../src/recipes/queue/ensure-path.js';
import { ZK_PERMS } from '../../src/zookeeper/types.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { FaultySession, type RequestOp } from '../support/faulty-session.js';
import { withTimeout } from '../support/wait.js';
import { openSession, sharedConnect, testRoot } from './lock-test-kit.js';

type Sent = [RequestOp, string];

describe('fresh lock names', () => {
  let session: ZkSession;
  before(async () => {
    session = await openSession(sharedConnect());
  });
  after(() => session.close());

  /** The requests `locks` sends for one acquire + release of `name`, and for each reply, how many had gone out by then. */
  async function cycle(faulty: FaultySession, locks: LockClient, name: string): Promise<{ sent: Sent[]; sentAtReply: number[]; token: bigint }> {
    const since = faulty.sent.length;
    const sentAtReply: number[] = [];
    const remove = faulty.after('*', () => void sentAtReply.push(faulty.sent.length - since));
    const lease = await withTimeout(locks.acquire(name), 10_000, `acquire ${name}`);
    const token = lease.fencingToken;
    await lease.release();
    remove();
    return { sent: faulty.sent.slice(since).map((r) => [r.op, r.path] as Sent), sentAtReply, token };
  }

  it('a name never used costs two round trips: our create finds no directory, then directory, node and listing go together', async () => {
    const faulty = new FaultySession(session);
    const locks = new LockClient(faulty, { root: testRoot() });
    await ensurePath(session, locks.pathOf('warm').replace(/\/[^/]+$/, ''), 'persistent'); // <root>/locks: a root in use
    const dir = locks.pathOf('order-1');
    const first = await cycle(faulty, locks, 'order-1');
    assert.deepEqual(first.sent.map(([op, path]) => [op, path.startsWith(`${dir}/`) ? 'node' : path]), [
      ['create', 'node'], // NONODE
      ['getChildren', dir], // NONODE (sent with it)
      ['create', dir],
      ['create', 'node'],
      ['getChildren', dir],
      ['delete', 'node'],
    ]);
    // Replies come in send order: 2 requests out at the first reply, and the next 3 all out
    // before the reply to the first of them (the directory's create) came back.
    assert.deepEqual([first.sentAtReply[0], first.sentAtReply[2]], [2, 5], 'two round trips: 2 requests, then 3');
    assert.equal((await session.exists(dir))?.ephemeralOwner, '0', "the directory belongs to no session (a container)");

    const second = await cycle(faulty, locks, 'order-1');
    assert.deepEqual(second.sent.map(([op]) => op), ['create', 'getChildren', 'delete'], 'the directory is there now: one round trip');
    assert.ok(second.token > first.token);
  });

  it('a name whose directory exists costs one round trip and no directory create, also for a client that never used it', async () => {
    const root = testRoot();
    const other = new LockClient(session, { root });
    await (await other.acquire('invoice-7')).release();
    const faulty = new FaultySession(session);
    const locks = new LockClient(faulty, { root });
    const first = await cycle(faulty, locks, 'invoice-7');
    assert.deepEqual(first.sent.map(([op]) => op), ['create', 'getChildren', 'delete']);
    assert.deepEqual(first.sentAtReply.slice(0, 2), [2, 2]);
  });

  it('a directory swept since it was seen is made again on the next look, and tokens keep increasing', async () => {
    const faulty = new FaultySession(session);
    const locks = new LockClient(faulty, { root: testRoot() });
    const dir = locks.pathOf('account-3');
    const first = await cycle(faulty, locks, 'account-3');
    await session.delete(dir); // what the container sweep does to an empty lock directory
    const again = await cycle(faulty, locks, 'account-3');
    assert.deepEqual(again.sent.map(([op, path]) => [op, path.startsWith(`${dir}/`) ? 'node' : path]), [
      ['create', 'node'], // NONODE: the directory went
      ['getChildren', dir], // NONODE too (sent with it)
      ['create', dir],
      ['create', 'node'],
      ['getChildren', dir],
      ['delete', 'node'],
    ]);
    assert.ok(again.token > first.token, 'the token of the recreated directory is still higher');
  });

  it('a brand-new root is made, parents included', async () => {
    const root = `${testRoot()}/deeper/still`;
    const locks = new LockClient(session, { root });
    const lease = await withTimeout(locks.acquire('x'), 10_000, 'acquire under a new root');
    assert.ok(await session.exists(locks.pathOf('x')));
    await lease.release();
  });

  it('a directory that cannot be made fails the acquire with the server\'s error, no retry loop', async () => {
    const root = testRoot();
    const locks = new LockClient(session, { root });
    const parent = locks.pathOf('x').replace(/\/[^/]+$/, '');
    await ensurePath(session, parent, 'persistent');
    await session.setAcl(parent, [{ perms: ZK_PERMS.READ | ZK_PERMS.ADMIN, scheme: 'world', id: 'anyone' }]); // no CREATE
    const error = await withTimeout(locks.acquire('x').then(() => assert.fail('acquired'), (e: unknown) => e), 10_000, 'acquire under a read-only parent');
    assert.ok(ZooKeeperError.is(error, 'NOAUTH'), `expected NOAUTH, got ${String(error)}`);
    await session.setAcl(parent, [{ perms: ZK_PERMS.ALL, scheme: 'world', id: 'anyone' }]);
  });
});
