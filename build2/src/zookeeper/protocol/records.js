// The jute records the client sends and reads (`zookeeper.jute`), as functions over the reader
// and writer. Sizes below are the least bytes an item can take, which bounds vector counts.
/** Stat: 8 longs and ints, 68 bytes (`zookeeper.jute`, class Stat). */
const STAT_BYTES = 68;
export function readStat(reader) {
    const czxid = reader.long();
    const mzxid = reader.long();
    const ctime = Number(reader.long());
    const mtime = Number(reader.long());
    const version = reader.int();
    const cversion = reader.int();
    const aversion = reader.int();
    const owner = reader.long();
    const dataLength = reader.int();
    const numChildren = reader.int();
    const pzxid = reader.long();
    return {
        czxid,
        mzxid,
        pzxid,
        ctime,
        mtime,
        version,
        cversion,
        aversion,
        ephemeralOwner: sessionIdHex(owner),
        dataLength,
        numChildren,
    };
}
/** A session id as ZooKeeper prints it (unsigned hex, no padding), e.g. `ff00017a3c2d0000`. */
export function sessionIdHex(id) {
    return BigInt.asUintN(64, id).toString(16);
}
export function parseSessionIdHex(hex) {
    return BigInt.asIntN(64, BigInt(`0x${hex}`));
}
export function writeAcl(writer, acl) {
    writer.int(acl.length);
    for (const entry of acl)
        writer.int(entry.perms).ustring(entry.scheme).ustring(entry.id);
}
export function readAcl(reader) {
    return reader.vector('acl', 12, () => ({ perms: reader.int(), scheme: reader.ustring(), id: reader.ustring() }));
}
export function readStatRecord(reader) {
    if (reader.remaining < STAT_BYTES)
        reader.fail(`stat needs ${STAT_BYTES} bytes, ${reader.remaining} left`);
    return readStat(reader);
}
export function writeConnectRequest(writer, request) {
    writer
        .int(0) // protocolVersion
        .long(request.lastZxidSeen)
        .int(request.timeoutMs)
        .long(request.sessionId)
        .buffer(request.password)
        .bool(request.readOnly);
}
export function readConnectResponse(reader) {
    reader.int(); // protocolVersion
    const timeoutMs = reader.int();
    const sessionId = reader.long();
    const password = reader.buffer();
    // Servers before 3.4 send no readOnly byte (`ClientCnxnSocket.readConnectResult` tolerates it).
    const readOnly = reader.remaining > 0 ? reader.bool() : false;
    reader.end();
    return { timeoutMs, sessionId, password, readOnly };
}
export function readReplyHeader(reader) {
    return { xid: reader.int(), zxid: reader.long(), err: reader.int() };
}
//# sourceMappingURL=records.js.map