/**
 * The simulated server's watch tables (`WatchTables`, through `ZnodeTree`), against what ZooKeeper
 * 3.8's `DataTree` and `WatchManager` do, on the cases the conformance scenarios cannot steer a real
 * server into one by one: which mode a session's watch ends up with when a one-shot and a
 * persistent one meet on a path, and what a recursive watch is told.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OPEN_ACL_UNSAFE } from '../../src/zookeeper/types.js';
import { ZnodeTree, type Notification, type Txn } from '../../src/zookeeper/simulated/znode-tree.js';

const SESSION = 7n;
let zxid = 100n;
const next = () => ++zxid;
const create = (path: string): Txn => ({ type: 'create', zxid: next(), time: 0, path, data: Buffer.alloc(0), owner: 0n, acl: OPEN_ACL_UNSAFE });
const setData = (path: string): Txn => ({ type: 'setData', zxid: next(), time: 0, path, data: Buffer.from('x') });
const told = (fired: Notification[]) => fired.filter((n) => n.session === SESSION).map((n) => `${n.type} ${n.path}`);

describe('simulated watch tables', () => {
  it('SetWatches sets the persistent watches after the one-shot ones, so a path in both stays persistent', () => {
    const tree = new ZnodeTree();
    tree.apply(create('/a'));
    // Reconnection: the client re-sends a getData watch and a persistent watch on the same node,
    // which has not changed since the zxid it saw: no event, both set again.
    assert.deepEqual(tree.setWatches(SESSION, zxid, { data: ['/a'], exist: [], child: [], persistent: ['/a'], recursive: [] }), []);
    assert.deepEqual(told(tree.apply(setData('/a'))), ['changed /a']);
    assert.deepEqual(told(tree.apply(setData('/a'))), ['changed /a'], 'the watch is still there: it is persistent');
  });

  it('a one-shot watch set on a path that has a persistent one makes it one-shot, as WatcherModeManager does in 3.8', () => {
    const tree = new ZnodeTree();
    tree.apply(create('/b'));
    tree.addWatch('/b', SESSION, false);
    tree.watch('data', '/b', SESSION);
    assert.deepEqual(told(tree.apply(setData('/b'))), ['changed /b']);
    assert.deepEqual(told(tree.apply(setData('/b'))), []);
  });

  it('a recursive watch is told of its node and everything below, once per change, never of child lists', () => {
    const tree = new ZnodeTree();
    tree.apply(create('/r'));
    tree.addWatch('/r', SESSION, true);
    tree.watch('data', '/r/c', SESSION); // a one-shot watch too: still one notification
    assert.deepEqual(told(tree.apply(create('/r/c'))), ['created /r/c']);
    assert.deepEqual(told(tree.apply(create('/r/c/d'))), ['created /r/c/d']);
    assert.deepEqual(told(tree.apply({ type: 'delete', zxid: next(), time: 0, path: '/r/c/d' })), ['deleted /r/c/d']);
    assert.deepEqual(told(tree.apply(setData('/r'))), ['changed /r']);
  });
});
