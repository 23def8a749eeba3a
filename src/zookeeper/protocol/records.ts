import type { ZkAcl, ZkStat } from '../types.js';
import type { JuteReader } from './jute-reader.js';
import type { JuteWriter } from './jute-writer.js';

// The jute records the client sends and reads (`zookeeper.jute`), as functions over the reader
// and writer. Sizes below are the least bytes an item can take, which bounds vector counts.

/** Stat: 8 longs and ints, 68 bytes (`zookeeper.jute`, class Stat). */
const STAT_BYTES = 68;

function readStat(reader: JuteReader): ZkStat {
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
export function sessionIdHex(id: bigint): string {
  return BigInt.asUintN(64, id).toString(16);
}

export function parseSessionIdHex(hex: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${hex}`));
}

export function writeAcl(writer: JuteWriter, acl: readonly ZkAcl[]): void {
  writer.int(acl.length);
  for (const entry of acl) writer.int(entry.perms).ustring(entry.scheme).ustring(entry.id);
}

export function readAcl(reader: JuteReader): ZkAcl[] {
  return reader.vector('acl', 12, () => ({ perms: reader.int(), scheme: reader.ustring(), id: reader.ustring() }));
}

export function readStatRecord(reader: JuteReader): ZkStat {
  if (reader.remaining < STAT_BYTES) reader.fail(`stat needs ${STAT_BYTES} bytes, ${reader.remaining} left`);
  return readStat(reader);
}

/** `ConnectRequest`: the handshake, with the last zxid this client saw (a server behind it refuses us). */
export interface ConnectRequest {
  readonly lastZxidSeen: bigint;
  readonly timeoutMs: number;
  readonly sessionId: bigint;
  readonly password: Buffer;
  readonly readOnly: boolean;
}

export function writeConnectRequest(writer: JuteWriter, request: ConnectRequest): void {
  writer
    .int(0) // protocolVersion
    .long(request.lastZxidSeen)
    .int(request.timeoutMs)
    .long(request.sessionId)
    .buffer(request.password)
    .bool(request.readOnly);
}

export interface ConnectResponse {
  /** 0 or less: the session we asked to resume has expired. */
  readonly timeoutMs: number;
  readonly sessionId: bigint;
  readonly password: Buffer;
  readonly readOnly: boolean;
}

export function readConnectResponse(reader: JuteReader): ConnectResponse {
  reader.int(); // protocolVersion
  const timeoutMs = reader.int();
  const sessionId = reader.long();
  const password = reader.buffer();
  // Servers before 3.4 send no readOnly byte (`ClientCnxnSocket.readConnectResult` tolerates it).
  const readOnly = reader.remaining > 0 ? reader.bool() : false;
  reader.end();
  return { timeoutMs, sessionId, password, readOnly };
}

/** `ReplyHeader`, the 16 bytes in front of every reply. */
export interface ReplyHeader {
  readonly xid: number;
  readonly zxid: bigint;
  readonly err: number;
}

export function readReplyHeader(reader: JuteReader): ReplyHeader {
  return { xid: reader.int(), zxid: reader.long(), err: reader.int() };
}
