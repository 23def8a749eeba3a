/**
 * Queue order (DESIGN §3 step 2) as properties over node names, no ZooKeeper: `sortQueue` returns
 * exactly the queue nodes of its marker, in creation order, whatever the listing order, the uuids,
 * the foreign children around them, and wherever the parent's signed 32-bit sequence counter is,
 * including across its wraps (2147483647 -> -2147483648 and -1 -> 0).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseQueueNode, sortQueue } from '../../src/recipes/queue/queue-node.js';
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** ZooKeeper's `String.format("%010d", counter)`: zero-padded to 10 characters, sign included. */
function zkSequence(counter) {
    return counter < 0 ? `-${String(-counter).padStart(9, '0')}` : String(counter).padStart(10, '0');
}
/** The counter after `n` more child changes: a Java int overflows silently. */
const wrap32 = (n) => n | 0;
const nodeName = (uuid, marker, counter) => `_c_${uuid}-${marker}-${zkSequence(counter)}`;
/** Children no client of ours created: never queue nodes of the `lock` marker. */
const foreignChild = fc.oneof(fc.constantFrom('foo', 'ready', 'lock-', 'x-lock-abc', '_c_nouuid-lock-0000000001', 'lock-0000000001', '_c_-lock-0000000002'), fc.uuid({ version: 4 }).map((uuid) => `_c_${uuid}-n-0000000003`), // an election node
fc.uuid({ version: 4 }).map((uuid) => `_c_${uuid}-lock-`), // no sequence
fc.uuid({ version: 4 }).map((uuid) => `_c_${uuid}-lock-12a`), 
// Upper case is foreign only for a uuid with a letter in it (fast-check also draws all-digit ones).
fc.uuid({ version: 4 }).filter((uuid) => /[a-f]/.test(uuid)).map((uuid) => `_c_${uuid.toUpperCase()}-lock-0000000004`), fc.uuid({ version: 4 }).map((uuid) => `x_c_${uuid}-lock-0000000005`), // sequence suffix, wrong prefix
fc.uuid({ version: 4 }).map((uuid) => `_c_${uuid}-lock-000000000001`));
/** A queue as ZooKeeper would have made it: counters from `start`, increasing by gaps (other children came and went). */
const queueArb = fc
    .record({
    start: fc.integer({ min: INT32_MIN, max: INT32_MAX }),
    gaps: fc.array(fc.integer({ min: 1, max: 2 ** 24 }), { minLength: 1, maxLength: 40 }), // span < 2^31
    uuids: fc.uniqueArray(fc.uuid({ version: 4 }), { minLength: 40, maxLength: 40 }),
    foreign: fc.array(foreignChild, { maxLength: 8 }),
    seed: fc.integer(),
})
    .map(({ start, gaps, uuids, foreign, seed }) => {
    let counter = start;
    const created = gaps.map((gap, i) => nodeName(uuids[i], 'lock', (counter = wrap32(counter + gap))));
    return { created, listing: shuffle([...created, ...foreign], seed) };
});
/** Deterministic Fisher-Yates from a fast-check seed, so that failures shrink and replay. */
function shuffle(items, seed) {
    let state = seed >>> 0 || 1;
    for (let i = items.length - 1; i > 0; i--) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        const j = state % (i + 1);
        [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
}
const RUNS = { numRuns: 300 };
describe('queue order by sequence suffix', () => {
    it('every int32 counter, formatted as ZooKeeper does, parses back to itself', () => {
        fc.assert(fc.property(fc.uuid({ version: 4 }), fc.integer({ min: INT32_MIN, max: INT32_MAX }), (uuid, counter) => {
            assert.equal(parseQueueNode(nodeName(uuid, 'lock', counter), 'lock')?.sequence, counter);
            assert.equal(parseQueueNode(nodeName(uuid, 'lock', counter), 'n'), undefined, 'another marker is not ours');
        }), { numRuns: 500, examples: [['0b3e1c0e-1b2a-4c3d-8e4f-5a6b7c8d9e0f', INT32_MIN], ['0b3e1c0e-1b2a-4c3d-8e4f-5a6b7c8d9e0f', -1]] });
    });
    it('returns exactly our nodes in creation order, for any listing order, start counter and foreign children', () => {
        fc.assert(fc.property(queueArb, ({ created, listing }) => {
            assert.deepEqual(sortQueue(listing, 'lock').map((node) => node.name), created);
        }), RUNS);
    });
    it('wrap: 2147483647 sorts before -2147483648 (creation order in serial-number arithmetic, not numeric or Curator/kazoo string order)', () => {
        // Both a numeric sort and a string sort (Curator's, kazoo's) put the node created after the
        // wrap first: its client would see itself at the head while the holder still holds.
        const [older, holder, newer, newest] = ['a', 'b', 'c', 'd'].map((c) => `${c.repeat(8)}-0000-4000-8000-${c.repeat(12)}`);
        const listing = [
            nodeName(newest, 'lock', INT32_MIN + 1),
            nodeName(newer, 'lock', INT32_MIN),
            nodeName(holder, 'lock', INT32_MAX),
            nodeName(older, 'lock', INT32_MAX - 1),
        ];
        assert.equal(listing[1], `_c_${newer}-lock--2147483648`, 'the name ZooKeeper gives after the wrap');
        assert.deepEqual(sortQueue(listing, 'lock').map((node) => node.name), [...listing].reverse());
    });
    it('wrap: -1 sorts before 0 (the counter keeps counting after the first wrap)', () => {
        const [a, b] = ['1', '2'].map((c) => `${c.repeat(8)}-0000-4000-8000-${c.repeat(12)}`);
        const listing = [nodeName(b, 'lock', 0), nodeName(a, 'lock', -1)];
        assert.equal(listing[1], `_c_${a}-lock--000000001`);
        assert.deepEqual(sortQueue(listing, 'lock').map((node) => node.name), [listing[1], listing[0]]);
    });
    it('is one total order: equal sequences (only from hand-made nodes) are ordered by name, whatever the listing order', () => {
        const sameSequence = fc.uniqueArray(fc.uuid({ version: 4 }), { minLength: 2, maxLength: 10 });
        fc.assert(fc.property(sameSequence, fc.integer({ min: INT32_MIN, max: INT32_MAX }), fc.integer(), (uuids, counter, seed) => {
            const names = uuids.map((uuid) => nodeName(uuid, 'lock', counter));
            const order = sortQueue(names, 'lock').map((node) => node.name);
            assert.deepEqual(sortQueue(shuffle([...names], seed), 'lock').map((node) => node.name), order);
            assert.deepEqual(order, [...names].sort());
        }), RUNS);
    });
});
//# sourceMappingURL=queue-order.property.test.js.map