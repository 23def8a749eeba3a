/**
 * The victims of the `operator-delete` fault among lock, read/write lock and election nodes (`waitingNodes`):
 * only nodes that cannot hold (or lead) by their recipe's rule in the leader's tree, so that the
 * deletion never takes a holder's node (which would make two holders whatever the library does).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitingNodes, type TreeNode } from './waiting-nodes.js';

const UUID = '0b7e2f8a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const node = (dir: string, marker: string, sequence: number, owner = '1a'): TreeNode => ({ path: `/sim/${dir}/_c_${UUID}-${marker}-${String(sequence).padStart(10, '0')}`, owner });
const paths = (nodes: readonly TreeNode[]) => nodes.map((n) => n.path).sort();

describe('waitingNodes (the operator-delete fault)', () => {
  it('takes every lock node behind the head, never the head, per directory', () => {
    const tree = [node('locks/a', 'lock', 7), node('locks/a', 'lock', 5), node('locks/a', 'lock', 9), node('locks/b', 'lock', 3), { path: '/sim/locks/a', owner: '0' }];
    assert.deepEqual(paths(waitingNodes(tree, '/sim')), paths([node('locks/a', 'lock', 7), node('locks/a', 'lock', 9)]));
  });

  it('orders by sequence across the wrap: the node after 2^31 - 1 waits behind it', () => {
    const tree = [node('locks/a', 'lock', -2147483648), node('locks/a', 'lock', 2147483647)];
    assert.deepEqual(paths(waitingNodes(tree, '/sim')), paths([node('locks/a', 'lock', -2147483648)]));
  });

  it('takes a writer behind anyone and a reader behind a writer, never a reader with only readers ahead', () => {
    const tree = [node('rwlocks/c', 'read', 1), node('rwlocks/c', 'read', 2), node('rwlocks/c', 'write', 3), node('rwlocks/c', 'read', 4), node('rwlocks/c', 'write', 5)];
    assert.deepEqual(paths(waitingNodes(tree, '/sim')), paths([node('rwlocks/c', 'write', 3), node('rwlocks/c', 'read', 4), node('rwlocks/c', 'write', 5)]));
  });

  it('takes every election node behind the head (the leader, or the next once it goes)', () => {
    const tree = [node('elections/main', 'n', 4), node('elections/main', 'n', 2), node('elections/main', 'n', 3)];
    assert.deepEqual(paths(waitingNodes(tree, '/sim')), paths([node('elections/main', 'n', 3), node('elections/main', 'n', 4)]));
  });

  it('counts no persistent node as ahead (the queue leaves look-alikes out), and leaves semaphores and partition sets alone', () => {
    const tree = [
      node('locks/a', 'lock', 1, '0'),
      node('locks/a', 'lock', 2),
      node('partitions/set/elections/assigner', 'n', 1),
      node('partitions/set/elections/assigner', 'n', 2),
      node('semaphores/s', '1of2', 1),
      node('semaphores/s', '2of2', 2),
      node('partitions/set/locks/3', 'lock', 1),
      node('partitions/set/locks/3', 'lock', 2),
    ];
    assert.deepEqual(waitingNodes(tree, '/sim'), []);
  });
});
