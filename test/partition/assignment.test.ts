/**
 * The assignment function on its own (no ZooKeeper: it is pure), over many shapes of membership
 * and previous ownership: even (by capacity), complete, sticky (moves exactly the minimum),
 * deterministic, and hand-overs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignPartitions, movedPartitions, quotasOf, type Owners, type PartitionMember } from '../../src/recipes/partition/assignment.js';

const member = (id: string, capacity = 1, declined?: number[]): PartitionMember => ({ id, capacity, declined });
const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `m-${String(i + from).padStart(3, '0')}`);
const countOf = (owners: Owners, id: string) => owners.filter((owner) => owner === id).length;

/** A small deterministic PRNG, so that every run checks the same shapes. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** The fewest moves any balanced assignment needs from `current`: what each live member must give up over its quota, plus what no live member holds. */
function minimumMoves(count: number, members: readonly PartitionMember[], current: Owners, result: Owners): number {
  const live = new Set(members.map((m) => m.id));
  const held = new Map<string, number>();
  for (const owner of current) if (owner !== null && live.has(owner)) held.set(owner, (held.get(owner) ?? 0) + 1);
  let kept = 0;
  for (const m of members) kept += Math.min(held.get(m.id) ?? 0, countOf(result, m.id));
  return count - kept;
}

function assertEven(count: number, members: readonly PartitionMember[], owners: Owners): void {
  assert.equal(owners.length, count);
  assert.ok(owners.every((owner) => owner !== null && members.some((m) => m.id === owner)), 'every partition has a live owner');
  const total = members.reduce((sum, m) => sum + m.capacity, 0);
  for (const m of members) {
    const share = (count * m.capacity) / total;
    const got = countOf(owners, m.id);
    assert.ok(got === Math.floor(share) || got === Math.ceil(share), `${m.id} (capacity ${m.capacity}) owns ${got}, share ${share}`);
  }
}

describe('assignPartitions', () => {
  it('64 partitions over 3 replicas: 22/21/21, all owned; a fourth joins: exactly 16 move, all to it; 16 each', () => {
    const three = ids(3).map((id) => member(id));
    const first = assignPartitions(64, three, []);
    assertEven(64, three, first);
    const four = [...three, member('m-999')];
    const second = assignPartitions(64, four, first);
    assertEven(64, four, second);
    const moved = movedPartitions(first, second);
    assert.equal(moved.length, 16);
    assert.ok(moved.every((k) => second[k] === 'm-999'), 'only the newcomer gains');
  });

  it('a graceful leave moves only the leaver\'s partitions, and balance is restored', () => {
    const four = ids(4).map((id) => member(id));
    const before = assignPartitions(64, four, []);
    const three = four.slice(1);
    const after = assignPartitions(64, three, before);
    assertEven(64, three, after);
    const moved = movedPartitions(before, after);
    assert.deepEqual(moved, before.flatMap((owner, k) => (owner === four[0]!.id ? [k] : [])));
  });

  it('over random shapes: complete, even by capacity, minimal moves, stable when nothing changed, independent of member order', () => {
    const next = random(33);
    for (let round = 0; round < 500; round++) {
      const count = 1 + Math.floor(next() * 130);
      const pool = ids(1 + Math.floor(next() * 9)).map((id) => member(id, 1 + Math.floor(next() * (next() < 0.5 ? 1 : 4))));
      const members = pool.filter(() => next() < 0.8);
      if (members.length === 0) members.push(pool[0]!);
      // Previous owners: some live, some gone, some nobody.
      const current: Owners = Array.from({ length: count }, () => (next() < 0.15 ? null : pool[Math.floor(next() * pool.length)]!.id));
      const owners = assignPartitions(count, members, current);
      assertEven(count, members, owners);
      const moves = movedPartitions(current, owners).length;
      assert.equal(moves, minimumMoves(count, members, current, owners), `round ${round}: moved ${moves}`);
      // The fewest any balanced answer could move: each live member keeps at most min(held, its best quota).
      assert.deepEqual(assignPartitions(count, members, owners), owners, `round ${round}: a second pass changes nothing`);
      const shuffled = [...members].sort(() => next() - 0.5);
      assert.deepEqual(assignPartitions(count, shuffled, current), owners, `round ${round}: member order does not matter`);
    }
  });

  it('the "+1" of the remainder goes to members that already own more, so no partition moves just to hand it out', () => {
    // 10 over 3 (4/3/3): member c held 4; with quotas 4/3/3 by id, c would have to give one up.
    const members = ids(3).map((id) => member(id));
    const current: Owners = ['m-002', 'm-002', 'm-002', 'm-002', 'm-000', 'm-000', 'm-000', 'm-001', 'm-001', 'm-001'];
    assert.deepEqual(quotasOf(10, members, new Map([['m-002', 4], ['m-000', 3], ['m-001', 3]])).get('m-002'), 4);
    assert.deepEqual(movedPartitions(current, assignPartitions(10, members, current)), []);
  });

  it('no members: nobody owns anything; one member owns everything', () => {
    assert.deepEqual(assignPartitions(3, [], ['a', 'b', null]), [null, null, null]);
    assert.deepEqual(assignPartitions(3, [member('a')], [null, 'b', 'a']), ['a', 'a', 'a']);
  });

  it('capacity weights: 2:1:1 over 64 gives 32/16/16', () => {
    const members = [member('a', 2), member('b'), member('c')];
    const owners = assignPartitions(64, members, []);
    assert.deepEqual([countOf(owners, 'a'), countOf(owners, 'b'), countOf(owners, 'c')], [32, 16, 16]);
  });

  it('hand-over: a declined partition goes to another member, balance holds, at most one other partition comes back', () => {
    const members = ids(3).map((id) => member(id));
    const before = assignPartitions(12, members, []);
    const k = before.indexOf('m-000');
    const declining = [member('m-000', 1, [k]), members[1]!, members[2]!];
    const after = assignPartitions(12, declining, before);
    assert.notEqual(after[k], 'm-000');
    assertEven(12, members, after);
    assert.ok(movedPartitions(before, after).length <= 2);
    // Alone, a member keeps what it declined: someone must own it.
    assert.deepEqual(assignPartitions(2, [member('a', 1, [0])], ['a', 'a']), ['a', 'a']);
  });
});
