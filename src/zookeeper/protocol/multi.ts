import type { ZkAcl, ZkStat } from '../types.js';
import type { JuteReader } from './jute-reader.js';
import type { JuteWriter } from './jute-writer.js';
import { CreateFlag, OpCode } from './op-codes.js';
import type { Operation } from './operations.js';
import { readStatRecord, writeAcl } from './records.js';

/** One operation of a `multi` transaction: all of them are applied, or none. */
export type MultiOp =
  | { readonly type: 'create'; readonly path: string; readonly data: Buffer; readonly acl: readonly ZkAcl[]; readonly flags: number }
  | { readonly type: 'delete'; readonly path: string; readonly version: number }
  | { readonly type: 'setData'; readonly path: string; readonly data: Buffer; readonly version: number }
  /** Fails the transaction unless the node's data version is `version` (-1: unless it exists). */
  | { readonly type: 'check'; readonly path: string; readonly version: number };

/**
 * What each op of a `multi` came to. When the transaction failed, every op has an `error`
 * result: the one that failed its own code, the others 0 (before it) or RUNTIMEINCONSISTENCY (after).
 */
export type MultiResult =
  /** The stat comes only from servers that answer a create in a multi as `create2` (3.8 does not). */
  | { readonly type: 'create'; readonly path: string; readonly stat?: ZkStat }
  | { readonly type: 'delete' }
  | { readonly type: 'setData'; readonly stat: ZkStat }
  | { readonly type: 'check' }
  | { readonly type: 'error'; readonly err: number };

/** A read of `multiRead`: each answers on its own (a missing node fails only its own op). */
export type ReadOp = { readonly type: 'getData'; readonly path: string } | { readonly type: 'getChildren'; readonly path: string };
export type ReadResult =
  | { readonly type: 'getData'; readonly data: Buffer; readonly stat: ZkStat }
  | { readonly type: 'getChildren'; readonly children: string[] }
  | { readonly type: 'error'; readonly err: number };

const OP_CODES = { create: OpCode.create2, delete: OpCode.delete, setData: OpCode.setData, check: OpCode.check } as const;

/** A container is created by its own op code (`PrepRequestProcessor` makes a container only from createContainer). */
function opCodeOf(op: MultiOp): number {
  return op.type === 'create' && op.flags === CreateFlag.container ? OpCode.createContainer : OP_CODES[op.type];
}

/** `MultiOperationRecord`: each op behind a `MultiHeader(type, done=false, err=-1)`, then a done header. */
export function multiOp(ops: readonly MultiOp[]): Operation<MultiResult[]> {
  return {
    name: 'multi',
    opCode: OpCode.multi,
    path: ops[0]?.path,
    readsErrors: true,
    write: (w) => {
      for (const op of ops) {
        w.int(opCodeOf(op)).bool(false).int(-1);
        writeMultiOp(w, op);
      }
      w.int(-1).bool(true).int(-1);
    },
    read: (r) => readResults(r, (type) => readMultiResult(r, type)),
  };
}

export function multiReadOp(ops: readonly ReadOp[]): Operation<ReadResult[]> {
  return {
    name: 'multiRead',
    opCode: OpCode.multiRead,
    path: ops[0]?.path,
    readsErrors: true,
    write: (w) => {
      for (const op of ops) {
        w.int(op.type === 'getData' ? OpCode.getData : OpCode.getChildren).bool(false).int(-1);
        w.ustring(op.path).bool(false);
      }
      w.int(-1).bool(true).int(-1);
    },
    read: (r) => readResults(r, (type) => readReadResult(r, type)),
  };
}

function writeMultiOp(w: JuteWriter, op: MultiOp): void {
  switch (op.type) {
    case 'create':
      w.ustring(op.path).buffer(op.data);
      writeAcl(w, op.acl);
      w.int(op.flags);
      return;
    case 'delete':
    case 'check':
      w.ustring(op.path).int(op.version);
      return;
    case 'setData':
      w.ustring(op.path).buffer(op.data).int(op.version);
      return;
  }
}

/** `MultiResponse.deserialize`: results behind headers until a header says done. */
function readResults<T>(r: JuteReader, readOne: (type: number) => T): T[] {
  const results: T[] = [];
  for (;;) {
    const type = r.int();
    const done = r.bool();
    r.int(); // err: repeated in the error result's own body
    if (done) return results;
    results.push(readOne(type));
  }
}

function readMultiResult(r: JuteReader, type: number): MultiResult {
  switch (type) {
    case OpCode.create:
      return { type: 'create', path: r.ustring() };
    case OpCode.create2:
      return { type: 'create', path: r.ustring(), stat: readStatRecord(r) };
    case OpCode.delete:
      return { type: 'delete' };
    case OpCode.setData:
      return { type: 'setData', stat: readStatRecord(r) };
    case OpCode.check:
      return { type: 'check' };
    case OpCode.error:
      return { type: 'error', err: r.int() };
    default:
      return r.fail(`op type ${type} in a multi reply`);
  }
}

function readReadResult(r: JuteReader, type: number): ReadResult {
  switch (type) {
    case OpCode.getData:
      return { type: 'getData', data: r.buffer(), stat: readStatRecord(r) };
    case OpCode.getChildren:
      return { type: 'getChildren', children: r.strings('children') };
    case OpCode.error:
      return { type: 'error', err: r.int() };
    default:
      return r.fail(`op type ${type} in a multiRead reply`);
  }
}
