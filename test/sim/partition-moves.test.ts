/**
 * The simulation's fewest-moves check (`partition-moves.ts`) on its own: it never fires on what the
 * recipe's `assignPartitions` writes (random members and previous assignments, as the assigner
 * meets them: members gone, new, more members than partitions), it fires on a "+1" handed to a
 * member at its floor while one above it loses a partition, and why it judges each write rather
 * than the whole settling phase. No ZooKeeper involved.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignPartitions } from '../../src/recipes/partition/assignment.js';
import { SimRandom } from '../../src/zookeeper/simulated/sim-random.js';
import { fewestMoves, judgeAssignment, movesBetween } from './partition-moves.js';

const members = (...ids: string[]) => ids.map((id) => ({ id, capacity: 1 }));

describe('fewest moves of a partition assignment', () => {
  it('counts the moves every even assignment needs', () => {
    const three = Array.from({ length: 64 }, (_, k) => ['a', 'b', 'c'][k % 3]!);
    assert.equal(fewestMoves(64, three, new Set(['a', 'b', 'c', 'd'])), 16);
    assert.equal(fewestMoves(5, ['a', 'a', 'a', 'b', 'b'], new Set(['a', 'b', 'c'])), 1);
    assert.equal(fewestMoves(4, ['a', 'gone', null, 'a'], new Set(['a'])), 2);
    assert.equal(fewestMoves(3, ['a', 'b', 'c'], new Set()), 3);
  });

  it('never fires on what assignPartitions writes', () => {
    const random = new SimRandom(33);
    const pool = ['m-1', 'm-2', 'm-3', 'm-4', 'm-5', 'm-6', 'm-7'];
    for (let round = 0; round < 2000; round++) {
      const count = random.between(1, 9);
      const before = Array.from({ length: count }, () => (random.chance(0.2) ? null : random.pick(pool)));
      const live = members(...pool.filter(() => random.chance(0.5)));
      const after = assignPartitions(count, random.shuffle(live), before);
      assert.equal(judgeAssignment(count, before, after), undefined, `round ${round}: ${JSON.stringify({ before, live, after })}`);
    }
  });

  it('fires on a "+1" that takes a partition from a member above its floor', () => {
    // 5 partitions, a joins b and c: a's floor is 1, b holds 3 and c 2 (both above): b and c keep 2 each, one move.
    const before = ['b', 'b', 'b', 'c', 'c'];
    assert.equal(judgeAssignment(5, before, assignPartitions(5, members('a', 'b', 'c'), before)), undefined);
    const wrong = judgeAssignment(5, before, ['b', 'a', 'a', 'c', 'c']);
    assert.equal(wrong?.rule, 'partition-moves-not-fewest');
    assert.equal(judgeAssignment(5, before, ['b', 'b', 'b', 'b', 'a'])?.rule, 'partition-assignment-uneven');
  });

  it('judges each change: two fewest steps need not be the fewest from the first to the last', () => {
    // c, b and a own one partition each; c's session goes (its partition 0 to a, the lowest id),
    // then c rejoins as d, and a keeps its lowest, 0, giving up 2: two moves where, from the start,
    // one suffices (0 to d). Both steps are as sticky as can be.
    const start = ['c', 'b', 'a'];
    const gone = assignPartitions(3, members('a', 'b'), start);
    const back = assignPartitions(3, members('a', 'b', 'd'), gone);
    assert.equal(judgeAssignment(3, start, gone), undefined);
    assert.equal(judgeAssignment(3, gone, back), undefined);
    assert.equal(movesBetween(3, start, back), 2);
    assert.equal(fewestMoves(3, start, new Set(['a', 'b', 'd'])), 1);
  });
});
