import { AddWatchMode, OpCode, WatcherType } from './op-codes.js';
import { readAcl, readStatRecord, writeAcl } from './records.js';
const nothing = () => undefined;
export function createOp(path, data, acl, flags, ttlMs) {
    // create2 (or its container/TTL forms) answers with the new node's stat as well as its path.
    const opCode = ttlMs !== undefined ? OpCode.createTTL : flags === 4 ? OpCode.createContainer : OpCode.create2;
    return {
        name: 'create',
        opCode,
        path,
        write: (w) => {
            w.ustring(path).buffer(data);
            writeAcl(w, acl);
            w.int(flags);
            if (ttlMs !== undefined)
                w.long(BigInt(ttlMs));
        },
        read: (r) => ({ path: r.ustring(), stat: readStatRecord(r) }),
    };
}
export function deleteOp(path, version) {
    return { name: 'delete', opCode: OpCode.delete, path, write: (w) => void w.ustring(path).int(version), read: nothing };
}
export function existsOp(path, watch) {
    return { name: 'exists', opCode: OpCode.exists, path, write: (w) => void w.ustring(path).bool(watch), read: readStatRecord };
}
export function getDataOp(path, watch) {
    return {
        name: 'getData',
        opCode: OpCode.getData,
        path,
        write: (w) => void w.ustring(path).bool(watch),
        read: (r) => ({ data: r.buffer(), stat: readStatRecord(r) }),
    };
}
export function setDataOp(path, data, version) {
    return { name: 'setData', opCode: OpCode.setData, path, write: (w) => void w.ustring(path).buffer(data).int(version), read: readStatRecord };
}
export function getChildrenOp(path, watch) {
    return {
        name: 'getChildren',
        opCode: OpCode.getChildren2,
        path,
        write: (w) => void w.ustring(path).bool(watch),
        read: (r) => ({ children: r.strings('children'), stat: readStatRecord(r) }),
    };
}
export function getAclOp(path) {
    return { name: 'getAcl', opCode: OpCode.getACL, path, write: (w) => void w.ustring(path), read: (r) => ({ acl: readAcl(r), stat: readStatRecord(r) }) };
}
export function setAclOp(path, acl, version) {
    return {
        name: 'setAcl',
        opCode: OpCode.setACL,
        path,
        write: (w) => {
            w.ustring(path);
            writeAcl(w, acl);
            w.int(version);
        },
        read: readStatRecord,
    };
}
export function syncOp(path) {
    return { name: 'sync', opCode: OpCode.sync, path, write: (w) => void w.ustring(path), read: (r) => r.ustring() };
}
export function addWatchOp(path, recursive) {
    const mode = recursive ? AddWatchMode.persistentRecursive : AddWatchMode.persistent;
    // The server answers with an `ErrorResponse(0)` body (`FinalRequestProcessor`).
    return { name: 'addWatch', opCode: OpCode.addWatch, path, write: (w) => void w.ustring(path).int(mode), read: (r) => void r.int() };
}
export function removeWatchesOp(path, type) {
    return { name: 'removeWatches', opCode: OpCode.removeWatches, path, write: (w) => void w.ustring(path).int(WatcherType[type]), read: nothing };
}
export function getEphemeralsOp(prefixPath) {
    return { name: 'getEphemerals', opCode: OpCode.getEphemerals, path: prefixPath, write: (w) => void w.ustring(prefixPath), read: (r) => r.strings('ephemerals') };
}
/** The identities the server has for this session (`ClientInfo`: scheme and user). */
export function whoAmIOp() {
    return {
        name: 'whoAmI',
        opCode: OpCode.whoAmI,
        path: undefined,
        write: nothing,
        read: (r) => r.vector('clientInfo', 8, () => ({ scheme: r.ustring(), user: r.ustring() })),
    };
}
export function closeSessionOp() {
    return { name: 'closeSession', opCode: OpCode.closeSession, path: undefined, write: nothing, read: nothing };
}
/** `AuthPacket` (sent with the reserved auth xid; the server answers AUTHFAILED by closing the session). */
export function writeAuth(writer, scheme, credentials) {
    writer.int(0).ustring(scheme).buffer(credentials);
}
/**
 * `setWatches2` (or the older `setWatches` when no persistent watch is among them, as the Java
 * client does for older servers): the server fires at once every watch whose node changed after
 * `relativeZxid`, and sets the others again.
 */
export function setWatchesOp(relativeZxid, watches) {
    const persistent = watches.persistent.length + watches.persistentRecursive.length > 0;
    return {
        name: 'setWatches',
        opCode: persistent ? OpCode.setWatches2 : OpCode.setWatches,
        path: undefined,
        write: (w) => {
            w.long(relativeZxid).strings(watches.data).strings(watches.exist).strings(watches.child);
            if (persistent)
                w.strings(watches.persistent).strings(watches.persistentRecursive);
        },
        read: nothing,
    };
}
//# sourceMappingURL=operations.js.map