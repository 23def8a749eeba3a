import { OpCode } from './op-codes.js';
import { readStatRecord, writeAcl } from './records.js';
const OP_CODES = { create: OpCode.create2, delete: OpCode.delete, setData: OpCode.setData, check: OpCode.check };
/** `MultiOperationRecord`: each op behind a `MultiHeader(type, done=false, err=-1)`, then a done header. */
export function multiOp(ops) {
    return {
        name: 'multi',
        opCode: OpCode.multi,
        path: ops[0]?.path,
        readsErrors: true,
        write: (w) => {
            for (const op of ops) {
                w.int(OP_CODES[op.type]).bool(false).int(-1);
                writeMultiOp(w, op);
            }
            w.int(-1).bool(true).int(-1);
        },
        read: (r) => readResults(r, (type) => readMultiResult(r, type)),
    };
}
export function multiReadOp(ops) {
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
function writeMultiOp(w, op) {
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
function readResults(r, readOne) {
    const results = [];
    for (;;) {
        const type = r.int();
        const done = r.bool();
        r.int(); // err: repeated in the error result's own body
        if (done)
            return results;
        results.push(readOne(type));
    }
}
function readMultiResult(r, type) {
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
function readReadResult(r, type) {
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
//# sourceMappingURL=multi.js.map