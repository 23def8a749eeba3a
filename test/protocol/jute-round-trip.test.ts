/**
 * The TypeScript client's jute against jute by hand (test/support/hand-jute.ts, plain `Buffer`
 * calls in `zookeeper.jute` field order): requests written by `JuteWriter` read back field by
 * field give what went in, and replies built by hand decode to the expected objects. The
 * companion of decoder-fuzz.test.ts: that one proves hostile bytes are refused, this one that
 * honest bytes mean what ZooKeeper means by them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JuteReader } from '../../src/zookeeper/protocol/jute-reader.js';
import { JuteWriter } from '../../src/zookeeper/protocol/jute-writer.js';
import { multiOp, multiReadOp } from '../../src/zookeeper/protocol/multi.js';
import { CreateFlag, OpCode } from '../../src/zookeeper/protocol/op-codes.js';
import * as ops from '../../src/zookeeper/protocol/operations.js';
import { readConnectResponse, writeConnectRequest } from '../../src/zookeeper/protocol/records.js';
import { HandCursor, handBytes, sampleStat, statFields } from '../support/hand-jute.js';

/** The body `write` puts on the wire, after checking the frame's length prefix. */
function written(write: (w: JuteWriter) => void): HandCursor {
  const writer = new JuteWriter(8); // small, so that every record makes it grow
  write(writer);
  const frame = writer.frame();
  assert.equal(frame.readInt32BE(0), frame.length - 4, 'length prefix');
  assert.equal(writer.length, frame.length - 4);
  return new HandCursor(frame.subarray(4));
}

function decoded<T>(read: (r: JuteReader) => T, body: Buffer): T {
  const reader = new JuteReader(body, 'hand-made reply');
  const value = read(reader);
  reader.end();
  return value;
}

describe('requests: JuteWriter read back by hand', () => {
  it('ConnectRequest: protocolVersion, lastZxidSeen, timeOut, sessionId, passwd, readOnly', () => {
    const password = Buffer.from('0123456789abcdef');
    const c = written((w) => writeConnectRequest(w, { lastZxidSeen: 0x1_0000_0005n, timeoutMs: 4000, sessionId: -2n, password, readOnly: false }));
    assert.deepEqual([c.int(), c.long(), c.int(), c.long(), c.buffer(), c.bool(), c.remaining], [0, 0x1_0000_0005n, 4000, -2n, password, false, 0]);
  });

  it('create with ACL, flags and TTL is createTTL: path, data, acl vector, flags, ttl', () => {
    const acl = [
      { perms: 31, scheme: 'world', id: 'anyone' },
      { perms: 1, scheme: 'digest', id: 'ü:x' },
    ];
    const op = ops.createOp('/locks/é-', Buffer.from([0, 255]), acl, CreateFlag.persistent_sequential_with_ttl, 60_000);
    assert.equal(op.opCode, OpCode.createTTL);
    const c = written(op.write);
    assert.equal(c.ustring(), '/locks/é-');
    assert.deepEqual(c.buffer(), Buffer.from([0, 255]));
    assert.equal(c.int(), 2);
    assert.deepEqual([c.int(), c.ustring(), c.ustring(), c.int(), c.ustring(), c.ustring()], [31, 'world', 'anyone', 1, 'digest', 'ü:x']);
    assert.deepEqual([c.int(), c.long(), c.remaining], [CreateFlag.persistent_sequential_with_ttl, 60_000n, 0]);
    assert.equal(ops.createOp('/c', Buffer.alloc(0), [], CreateFlag.container).opCode, OpCode.createContainer);
    assert.equal(ops.createOp('/e', Buffer.alloc(0), [], CreateFlag.ephemeral_sequential).opCode, OpCode.create2);
  });

  it('setData and getData: path, data, version / path, watch', () => {
    const set = written(ops.setDataOp('/a', Buffer.from('v'), 7).write);
    assert.deepEqual([set.ustring(), set.buffer(), set.int(), set.remaining], ['/a', Buffer.from('v'), 7, 0]);
    const get = written(ops.getDataOp('/a', true).write);
    assert.deepEqual([get.ustring(), get.bool(), get.remaining], ['/a', true, 0]);
  });

  it('multi: each op behind MultiHeader(type, false, -1), then MultiHeader(-1, true, -1)', () => {
    const c = written(
      multiOp([
        { type: 'create', path: '/m/a', data: Buffer.from('x'), acl: [{ perms: 31, scheme: 'world', id: 'anyone' }], flags: 1 },
        { type: 'check', path: '/m', version: 3 },
        { type: 'setData', path: '/m', data: Buffer.alloc(0), version: -1 },
        { type: 'delete', path: '/m/b', version: 2 },
      ]).write,
    );
    const header = () => [c.int(), c.bool(), c.int()];
    assert.deepEqual(header(), [OpCode.create2, false, -1]);
    assert.deepEqual([c.ustring(), c.buffer(), c.int(), c.int(), c.ustring(), c.ustring(), c.int()], ['/m/a', Buffer.from('x'), 1, 31, 'world', 'anyone', 1]);
    assert.deepEqual(header(), [OpCode.check, false, -1]);
    assert.deepEqual([c.ustring(), c.int()], ['/m', 3]);
    assert.deepEqual(header(), [OpCode.setData, false, -1]);
    assert.deepEqual([c.ustring(), c.buffer(), c.int()], ['/m', Buffer.alloc(0), -1]);
    assert.deepEqual(header(), [OpCode.delete, false, -1]);
    assert.deepEqual([c.ustring(), c.int()], ['/m/b', 2]);
    assert.deepEqual([...header(), c.remaining], [-1, true, -1, 0]);
  });

  it('setWatches2 carries five lists; without persistent watches it is the older setWatches with three', () => {
    const watches = { data: ['/d'], exist: ['/e1', '/e2'], child: [], persistent: ['/p'], persistentRecursive: [] };
    const op = ops.setWatchesOp(42n, watches);
    assert.equal(op.opCode, OpCode.setWatches2);
    const c = written(op.write);
    const list = () => Array.from({ length: c.int() }, () => c.ustring());
    assert.deepEqual([c.long(), list(), list(), list(), list(), list(), c.remaining], [42n, ['/d'], ['/e1', '/e2'], [], ['/p'], [], 0]);
    const old = ops.setWatchesOp(1n, { ...watches, persistent: [] });
    assert.equal(old.opCode, OpCode.setWatches);
    const o = written(old.write);
    const oldList = () => Array.from({ length: o.int() }, () => o.ustring());
    assert.deepEqual([o.long(), oldList(), oldList(), oldList(), o.remaining], [1n, ['/d'], ['/e1', '/e2'], [], 0]);
  });

  it('AuthPacket: type 0, scheme, auth bytes', () => {
    const c = written((w) => ops.writeAuth(w, 'digest', Buffer.from('u:p')));
    assert.deepEqual([c.int(), c.ustring(), c.buffer(), c.remaining], [0, 'digest', Buffer.from('u:p'), 0]);
  });
});

describe('replies by hand decode to the expected objects', () => {
  it('getData: data and stat; a null buffer reads as empty', () => {
    const stat = sampleStat(3);
    assert.deepEqual(decoded(ops.getDataOp('/a', false).read, handBytes([{ buffer: Buffer.from('hi') }, ...statFields(stat)])), { data: Buffer.from('hi'), stat });
    assert.deepEqual(decoded(ops.getDataOp('/a', false).read, handBytes([{ buffer: null }, ...statFields(stat)])), { data: Buffer.alloc(0), stat });
  });

  it('getChildren2 and getACL', () => {
    const stat = sampleStat(4);
    const children = handBytes([{ int: 2 }, { ustring: 'n-0000000001' }, { ustring: 'ü' }, ...statFields(stat)]);
    assert.deepEqual(decoded(ops.getChildrenOp('/a', false).read, children), { children: ['n-0000000001', 'ü'], stat });
    const acl = handBytes([{ int: 1 }, { int: 31 }, { ustring: 'world' }, { ustring: 'anyone' }, ...statFields(stat)]);
    assert.deepEqual(decoded(ops.getAclOp('/a').read, acl), { acl: [{ perms: 31, scheme: 'world', id: 'anyone' }], stat });
  });

  it('a failed multi: one error result per op (0 before the failing one, its code, RUNTIMEINCONSISTENCY after)', () => {
    const error = (err: number) => handBytes([{ int: OpCode.error }, { bool: false }, { int: err }, { int: err }]);
    const body = Buffer.concat([error(0), error(-101), error(-2), handBytes([{ int: -1 }, { bool: true }, { int: -1 }])]);
    assert.deepEqual(decoded(multiOp([]).read, body), [
      { type: 'error', err: 0 },
      { type: 'error', err: -101 },
      { type: 'error', err: -2 },
    ]);
  });

  it('a successful multi and a multiRead', () => {
    const stat = sampleStat(5);
    const multi = handBytes([
      ...[{ int: OpCode.create }, { bool: false }, { int: 0 }, { ustring: '/m/a0000000001' }],
      ...[{ int: OpCode.setData }, { bool: false }, { int: 0 }, ...statFields(stat)],
      ...[{ int: OpCode.check }, { bool: false }, { int: 0 }],
      ...[{ int: -1 }, { bool: true }, { int: -1 }],
    ]);
    assert.deepEqual(decoded(multiOp([]).read, multi), [{ type: 'create', path: '/m/a0000000001' }, { type: 'setData', stat }, { type: 'check' }]);
    const read = handBytes([
      ...[{ int: OpCode.getData }, { bool: false }, { int: 0 }, { buffer: Buffer.from('d') }, ...statFields(stat)],
      ...[{ int: OpCode.error }, { bool: false }, { int: -101 }, { int: -101 }],
      ...[{ int: OpCode.getChildren }, { bool: false }, { int: 0 }, { int: 1 }, { ustring: 'c' }],
      ...[{ int: -1 }, { bool: true }, { int: -1 }],
    ]);
    assert.deepEqual(decoded(multiReadOp([]).read, read), [
      { type: 'getData', data: Buffer.from('d'), stat },
      { type: 'error', err: -101 },
      { type: 'getChildren', children: ['c'] },
    ]);
  });

  it('ConnectResponse with the readOnly byte, and without it (servers before 3.4)', () => {
    const password = Buffer.alloc(16, 7);
    const fields = [{ int: 0 }, { int: 6000 }, { long: 0x0100_0000_0000_002an }, { buffer: password }] as const;
    const expected = { timeoutMs: 6000, sessionId: 0x0100_0000_0000_002an, password };
    assert.deepEqual(decoded(readConnectResponse, handBytes([...fields, { bool: true }])), { ...expected, readOnly: true });
    assert.deepEqual(decoded(readConnectResponse, handBytes([...fields])), { ...expected, readOnly: false });
  });
});
