/**
 * Hostile bytes against the decoding side of the TypeScript client (issue 30). `FrameDecoder`
 * cuts any chunking of valid frames into the same frames, and refuses a negative or oversized
 * length on its four bytes alone (it never waits for, or holds, the body such a length
 * announces). Every reply reader, fed valid, truncated, mutated or random bodies, only ever
 * yields a value or a `ZooKeeperProtocolError` (the one error the session turns into "drop the
 * connection"), and never reads more fields than the body has bytes, so it cannot loop.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ZooKeeperProtocolError } from '../../src/errors/zookeeper-protocol.error.js';
import { DEFAULT_MAX_FRAME_BYTES, FrameDecoder } from '../../src/zookeeper/protocol/frame-decoder.js';
import { JuteReader } from '../../src/zookeeper/protocol/jute-reader.js';
import { multiOp, multiReadOp } from '../../src/zookeeper/protocol/multi.js';
import { OpCode } from '../../src/zookeeper/protocol/op-codes.js';
import * as ops from '../../src/zookeeper/protocol/operations.js';
import { readAcl, readConnectResponse, readReplyHeader, readStatRecord } from '../../src/zookeeper/protocol/records.js';
import { handBytes, handFrame, sampleStat, statFields, type HandField } from '../support/hand-jute.js';

/** Counts the primitive reads (everything else is built on them); each takes at least one byte. */
class CountingReader extends JuteReader {
  reads = 0;
  override int(): number {
    const value = super.int();
    this.reads += 1;
    return value;
  }
  override long(): bigint {
    const value = super.long();
    this.reads += 1;
    return value;
  }
  override bool(): boolean {
    const value = super.bool();
    this.reads += 1;
    return value;
  }
}

/** Decodes `body` as the session does (read, then nothing may be left); 'value' or the protocol error. */
function decode(read: (r: JuteReader) => unknown, body: Buffer): 'value' | ZooKeeperProtocolError {
  const reader = new CountingReader(body, 'fuzzed reply');
  try {
    read(reader);
    reader.end();
    return 'value';
  } catch (error) {
    assert.ok(error instanceof ZooKeeperProtocolError, `not a ZooKeeperProtocolError: ${(error as Error)?.stack ?? String(error)}`);
    return error;
  } finally {
    assert.ok(reader.reads <= body.length, `${reader.reads} successful reads from ${body.length} bytes`);
  }
}

const seed = fc.integer({ min: 0, max: 1000 });
const text = fc.string({ maxLength: 12 });
const bytes = (maxLength: number) => fc.uint8Array({ maxLength }).map((a) => Buffer.from(a));
const stat = seed.map((s) => statFields(sampleStat(s)));
const strings = fc.array(text, { maxLength: 4 }).map((list): HandField[] => [{ int: list.length }, ...list.map((s) => ({ ustring: s }))]);
const acl = fc.array(fc.tuple(fc.integer({ min: 0, max: 31 }), text, text), { maxLength: 3 }).map((list): HandField[] => [
  { int: list.length },
  ...list.flatMap(([perms, scheme, id]): HandField[] => [{ int: perms }, { ustring: scheme }, { ustring: id }]),
]);
const multiHeader = (type: number, done: boolean, err: number): HandField[] => [{ int: type }, { bool: done }, { int: err }];
const multiResult = fc.oneof(
  fc.tuple(text, stat).map(([path, s]) => [...multiHeader(OpCode.create2, false, 0), { ustring: path }, ...s]),
  text.map((path) => [...multiHeader(OpCode.create, false, 0), { ustring: path }]),
  fc.constant(multiHeader(OpCode.delete, false, 0)),
  fc.constant(multiHeader(OpCode.check, false, 0)),
  stat.map((s) => [...multiHeader(OpCode.setData, false, 0), ...s]),
  fc.integer({ min: -130, max: 0 }).map((err) => [...multiHeader(OpCode.error, false, err), { int: err }]),
);
const readResult = fc.oneof(
  fc.tuple(bytes(16), stat).map(([data, s]) => [...multiHeader(OpCode.getData, false, 0), { buffer: data }, ...s]),
  strings.map((list) => [...multiHeader(OpCode.getChildren, false, 0), ...list]),
  fc.constant<HandField[]>([...multiHeader(OpCode.error, false, -101), { int: -101 }]),
);
const results = (one: fc.Arbitrary<HandField[]>) => fc.array(one, { maxLength: 4 }).map((list) => [...list.flat(), ...multiHeader(-1, true, -1)]);

/** Every reader of a reply body the client has, with a generator of valid bodies for it. */
const READERS: { name: string; read: (r: JuteReader) => unknown; valid: fc.Arbitrary<HandField[]> }[] = [
  { name: 'reply header', read: readReplyHeader, valid: fc.constant([{ int: 7 }, { long: 9n }, { int: 0 }]) },
  {
    name: 'connect response',
    read: readConnectResponse,
    valid: fc.tuple(fc.integer(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), bytes(16), fc.option(fc.boolean())).map(([t, id, pw, ro]) => [
      { int: 0 },
      { int: t },
      { long: id },
      { buffer: pw },
      ...(ro === null ? [] : [{ bool: ro }]),
    ]),
  },
  { name: 'stat', read: readStatRecord, valid: stat },
  { name: 'acl', read: readAcl, valid: acl },
  { name: 'create2', read: ops.createOp('/a', Buffer.alloc(0), [], 0).read, valid: fc.tuple(text, stat).map(([p, s]) => [{ ustring: p }, ...s]) },
  { name: 'exists', read: ops.existsOp('/a', false).read, valid: stat },
  { name: 'setData', read: ops.setDataOp('/a', Buffer.alloc(0), -1).read, valid: stat },
  { name: 'setAcl', read: ops.setAclOp('/a', [], -1).read, valid: stat },
  { name: 'getData', read: ops.getDataOp('/a', false).read, valid: fc.tuple(fc.option(bytes(24)), stat).map(([d, s]) => [{ buffer: d }, ...s]) },
  { name: 'getChildren2', read: ops.getChildrenOp('/a', false).read, valid: fc.tuple(strings, stat).map(([l, s]) => [...l, ...s]) },
  { name: 'getACL', read: ops.getAclOp('/a').read, valid: fc.tuple(acl, stat).map(([a, s]) => [...a, ...s]) },
  { name: 'sync', read: ops.syncOp('/a').read, valid: text.map((p) => [{ ustring: p }]) },
  { name: 'addWatch', read: ops.addWatchOp('/a', true).read, valid: fc.constant([{ int: 0 }]) },
  { name: 'getEphemerals', read: ops.getEphemeralsOp('/').read, valid: strings },
  {
    name: 'whoAmI',
    read: ops.whoAmIOp().read,
    valid: fc.array(fc.tuple(text, text), { maxLength: 3 }).map((l) => [{ int: l.length }, ...l.flatMap(([s, u]) => [{ ustring: s }, { ustring: u }])]),
  },
  { name: 'delete', read: ops.deleteOp('/a', -1).read, valid: fc.constant([]) },
  { name: 'removeWatches', read: ops.removeWatchesOp('/a', 'any').read, valid: fc.constant([]) },
  { name: 'closeSession', read: ops.closeSessionOp().read, valid: fc.constant([]) },
  { name: 'multi', read: multiOp([]).read, valid: results(multiResult) },
  { name: 'multiRead', read: multiReadOp([]).read, valid: results(readResult) },
];

/** How a valid body is spoiled: cut short, bytes overwritten, bytes appended, or replaced by noise. */
type Spoil = { kind: 'truncate'; at: number } | { kind: 'mutate'; edits: [number, number][] } | { kind: 'append'; extra: Buffer } | { kind: 'noise'; noise: Buffer };
const spoil: fc.Arbitrary<Spoil> = fc.oneof(
  fc.nat().map((at) => ({ kind: 'truncate' as const, at })),
  fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }).map((edits) => ({ kind: 'mutate' as const, edits })),
  bytes(8).filter((b) => b.length > 0).map((extra) => ({ kind: 'append' as const, extra })),
  bytes(160).map((noise) => ({ kind: 'noise' as const, noise })),
);

function spoiled(valid: Buffer, how: Spoil): Buffer {
  switch (how.kind) {
    case 'truncate':
      return valid.subarray(0, valid.length === 0 ? 0 : how.at % valid.length);
    case 'mutate': {
      const copy = Buffer.from(valid);
      for (const [at, value] of how.edits) if (copy.length > 0) copy[at % copy.length] = value;
      return copy;
    }
    case 'append':
      return Buffer.concat([valid, how.extra]);
    case 'noise':
      return how.noise;
  }
}

describe('reply readers against hostile bytes', () => {
  for (const reader of READERS) {
    it(`${reader.name}: valid bodies decode; spoiled ones give a value or ZooKeeperProtocolError only`, () => {
      const outcomes = { valid: 0, truncatedRefused: 0, spoiled: 0 };
      fc.assert(
        fc.property(reader.valid, spoil, (fields, how) => {
          const valid = handBytes(fields);
          assert.equal(decode(reader.read, valid), 'value', `valid ${reader.name} body refused: ${valid.toString('hex')}`);
          outcomes.valid += 1;
          const bad = spoiled(valid, how);
          const outcome = decode(reader.read, bad);
          outcomes.spoiled += 1;
          // Only the readOnly byte of a connect response is optional (servers before 3.4 omit it).
          const optionalTail = reader.name === 'connect response' && bad.length === valid.length - 1 && fields.length === 5;
          if (how.kind === 'truncate' && valid.length > 0 && !optionalTail) {
            assert.ok(outcome instanceof ZooKeeperProtocolError, `${reader.name} cut to ${bad.length} of ${valid.length} bytes read as a value`);
            outcomes.truncatedRefused += 1;
          }
          // Bytes past the record mean it was misread: refused too.
          const readsAsReadOnly = reader.name === 'connect response' && fields.length === 4 && how.kind === 'append' && how.extra.length === 1;
          if (how.kind === 'append' && !readsAsReadOnly) assert.ok(outcome instanceof ZooKeeperProtocolError, `${reader.name} accepted ${how.extra.length} extra bytes`);
        }),
        { numRuns: 150 },
      );
      assert.equal(outcomes.valid, 150);
      assert.equal(outcomes.spoiled, 150);
    });
  }
});

/** Feeds `stream` cut at `cuts` and returns what came out. */
function feed(decoder: FrameDecoder, stream: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
  const frames: Buffer[] = [];
  let from = 0;
  for (const to of [...points, stream.length]) {
    frames.push(...decoder.push(stream.subarray(from, to)));
    from = to;
  }
  return frames;
}

function lengthBytes(length: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(length);
  return b;
}

describe('FrameDecoder', () => {
  it('any chunking of valid frames gives the same frames, and nothing is left over', () => {
    fc.assert(
      fc.property(fc.array(bytes(48), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 12 }), (bodies, cuts) => {
        const decoder = new FrameDecoder();
        const frames = feed(decoder, Buffer.concat(bodies.map(handFrame)), cuts);
        assert.equal(frames.length, bodies.length);
        frames.forEach((frame, i) => assert.ok(frame.equals(bodies[i]!), `frame ${i} differs`));
        assert.equal(decoder.pendingBytes, 0);
      }),
      { numRuns: 300 },
    );
  });

  it('a negative or oversized length throws on its four bytes alone, holding none of what it announces', () => {
    const bound = fc.oneof(fc.constant(DEFAULT_MAX_FRAME_BYTES), fc.integer({ min: 0, max: 1 << 16 }));
    const case_ = bound.chain((max) =>
      fc.record({
        max: fc.constant(max),
        length: fc.oneof(fc.integer({ min: -(2 ** 31), max: -1 }), fc.integer({ min: max + 1, max: 2 ** 31 - 1 })),
        before: fc.array(bytes(16), { maxLength: 3 }),
        oneByteAtATime: fc.boolean(),
      }),
    );
    let thrown = 0;
    fc.assert(
      fc.property(case_, ({ max, length, before, oneByteAtATime }) => {
        const decoder = new FrameDecoder(max);
        const frames = feed(decoder, Buffer.concat(before.filter((b) => b.length <= max).map(handFrame)), []);
        assert.equal(decoder.pendingBytes, 0);
        const header = lengthBytes(length);
        const chunks = oneByteAtATime ? [...header].map((byte) => Buffer.from([byte])) : [header];
        chunks.slice(0, -1).forEach((chunk, i) => {
          assert.deepEqual(decoder.push(chunk), []);
          assert.equal(decoder.pendingBytes, i + 1);
        });
        assert.throws(() => decoder.push(chunks.at(-1)!), (error) => error instanceof ZooKeeperProtocolError && error.message.includes(String(length)));
        assert.equal(decoder.pendingBytes, 0, 'the refused length left bytes held');
        assert.ok(frames.length <= before.length);
        thrown += 1;
      }),
      { numRuns: 300 },
    );
    assert.equal(thrown, 300);
  });

  it('an empty frame (length 0) ending a chunk comes out as an empty frame', () => {
    const decoder = new FrameDecoder();
    assert.deepEqual(decoder.push(lengthBytes(0)), [Buffer.alloc(0)]);
    assert.deepEqual(decoder.push(Buffer.concat([lengthBytes(0), lengthBytes(0)])), [Buffer.alloc(0), Buffer.alloc(0)]);
    assert.equal(decoder.pendingBytes, 0);
  });

  it('a length of exactly the bound is accepted, one more is refused', () => {
    const decoder = new FrameDecoder(1000);
    assert.deepEqual(decoder.push(lengthBytes(1000)), []);
    assert.equal(decoder.pendingBytes, 0);
    assert.equal(decoder.push(Buffer.alloc(999)).length, 0);
    assert.equal(decoder.pendingBytes, 999);
    assert.equal(decoder.push(Buffer.alloc(1)).length, 1);
    assert.throws(() => new FrameDecoder(1000).push(lengthBytes(1001)), ZooKeeperProtocolError);
  });
});
