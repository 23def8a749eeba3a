import { ZOOKEEPER_ERROR_CODES as RC } from '../../errors/zookeeper.error.js';
import { JuteReader } from '../protocol/jute-reader.js';
import { JuteWriter } from '../protocol/jute-writer.js';
import { OpCode, Xid } from '../protocol/op-codes.js';
import type { ZkAcl } from '../types.js';
import type { ClientRequest } from './server-connection.js';
import { digestId, type MultiFault, type MultiOpResult, type MultiWrite, type SimStat } from './znode-tree.js';

// The server's half of the wire format, for the simulated frame server (`SimulatedLink`): it reads
// what the client writes (`operations.ts`, `records.ts`) and writes what the client reads, with the
// client's own `JuteReader` and `JuteWriter`. Layouts are `zookeeper.jute`'s. The connect handshake's
// frames are `handshake-codec.ts`'s.

/** One request frame: its header, and the request the simulated server executes. */
export interface RequestFrame {
  readonly xid: number;
  readonly opCode: number;
  readonly request: ClientRequest;
  /** An auth packet of a scheme the simulated servers do not know (only `digest` exists). */
  readonly badAuth?: true;
}

export function readRequestFrame(frame: Buffer): RequestFrame {
  const r = new JuteReader(frame, 'request');
  const xid = r.int();
  const opCode = r.int();
  const request = readRequest(r, opCode);
  const badAuth = request === undefined;
  return { xid, opCode, request: request ?? { op: 'auth', id: '' }, ...(badAuth && { badAuth }) };
}

/** The body of `opCode`; undefined for an auth packet the server refuses. */
function readRequest(r: JuteReader, opCode: number): ClientRequest | undefined {
  switch (opCode) {
    case OpCode.ping:
      return { op: 'ping' };
    case OpCode.closeSession:
      return { op: 'closeSession' };
    case OpCode.auth: {
      r.int(); // type
      const scheme = r.ustring();
      const credentials = r.buffer().toString('utf8');
      return scheme === 'digest' && credentials.includes(':') ? { op: 'auth', id: digestId(credentials) } : undefined;
    }
    case OpCode.setWatches:
    case OpCode.setWatches2: {
      const relativeZxid = r.long();
      const data = r.strings('data watches');
      const exist = r.strings('exist watches');
      const child = r.strings('child watches');
      if (opCode === OpCode.setWatches) return { op: 'setWatches', relativeZxid, watches: { data, exist, child } };
      const persistent = r.strings('persistent watches');
      const recursive = r.strings('recursive watches');
      return { op: 'setWatches', relativeZxid, watches: { data, exist, child, persistent, recursive } };
    }
    case OpCode.create:
    case OpCode.create2:
    case OpCode.createContainer:
      return readCreate(r);
    case OpCode.delete:
      return readDelete(r);
    case OpCode.exists:
      return { op: 'exists', path: r.ustring(), watch: r.bool() };
    case OpCode.getData:
      return { op: 'getData', path: r.ustring(), watch: r.bool() };
    case OpCode.getChildren:
    case OpCode.getChildren2:
      return { op: 'getChildren', path: r.ustring(), watch: r.bool() };
    case OpCode.setData:
      return readSetData(r);
    case OpCode.getACL:
      return { op: 'getAcl', path: r.ustring() };
    case OpCode.setACL: {
      const path = r.ustring();
      const acl: ZkAcl[] = r.vector('acl', 12, () => ({ perms: r.int(), scheme: r.ustring(), id: r.ustring() }));
      return { op: 'setAcl', path, acl, version: r.int() };
    }
    case OpCode.sync:
      return { op: 'sync', path: r.ustring() };
    case OpCode.multi:
      return readMulti(r);
    case OpCode.getEphemerals:
      return { op: 'getEphemerals', prefix: r.ustring() };
    case OpCode.addWatch: {
      const path = r.ustring();
      // AddWatchMode: PERSISTENT 0, PERSISTENT_RECURSIVE 1 (no client sends another; the server would fail it).
      const mode = r.int();
      return mode === 0 || mode === 1 ? { op: 'addWatch', path, recursive: mode === 1 } : { op: 'unimplemented', opCode };
    }
    case OpCode.checkWatches:
    case OpCode.removeWatches:
      return { op: 'removeWatches', path: r.ustring(), type: r.int(), remove: opCode === OpCode.removeWatches };
    default:
      // multiRead, TTL nodes, whoAmI, the reconfig request (a reconfig is `SimulatedEnsemble.reconfigure`): not simulated.
      return { op: 'unimplemented', opCode };
  }
}

/** `MultiOperationRecord`: ops behind `MultiHeader`s until a header says done; one the servers do not serve (a TTL create) makes the whole request unimplemented. */
function readMulti(r: JuteReader): ClientRequest {
  const ops: { opCode: number; write: MultiWrite }[] = [];
  for (;;) {
    const opCode = r.int();
    const done = r.bool();
    r.int(); // err
    if (done) return { op: 'multi', ops };
    switch (opCode) {
      case OpCode.create:
      case OpCode.create2:
      case OpCode.createContainer:
        ops.push({ opCode, write: readCreate(r) });
        break;
      case OpCode.delete:
        ops.push({ opCode, write: readDelete(r) });
        break;
      case OpCode.setData:
        ops.push({ opCode, write: readSetData(r) });
        break;
      case OpCode.check:
        ops.push({ opCode, write: { op: 'check', path: r.ustring(), version: r.int() } });
        break;
      default:
        return { op: 'unimplemented', opCode: OpCode.multi };
    }
  }
}

/** `CreateRequest` (also inside a multi), with the ACL the node is created with. */
function readCreate(r: JuteReader) {
  const path = r.ustring();
  const data = r.buffer();
  const acl: ZkAcl[] = r.vector('acl', 12, () => ({ perms: r.int(), scheme: r.ustring(), id: r.ustring() }));
  return { op: 'create', path, data, acl, flags: r.int() } as const;
}

/** `DeleteRequest` (also inside a multi). */
function readDelete(r: JuteReader) {
  return { op: 'delete', path: r.ustring(), version: r.int() } as const;
}

/** `SetDataRequest` (also inside a multi). */
function readSetData(r: JuteReader) {
  return { op: 'setData', path: r.ustring(), data: r.buffer(), version: r.int() } as const;
}

/** What the ensemble answers a `multi` with: its ops' op codes, and their results or the op that failed. */
export interface MultiReply {
  readonly opCodes: readonly number[];
  readonly outcome: { readonly results: readonly MultiOpResult[] } | { readonly fault: MultiFault };
}

/**
 * `MultiResponse`: a result per op behind its `MultiHeader`, then a done header. A failed
 * transaction answers an error result for every op: the one that failed its code, those before
 * it 0, those after it RUNTIMEINCONSISTENCY (`PrepRequestProcessor`); the reply header says 0
 * (`FinalRequestProcessor` throws a multi's exception only for SESSIONMOVED).
 */
function writeMultiResults(w: JuteWriter, reply: MultiReply): void {
  reply.opCodes.forEach((opCode, i) => {
    if ('fault' in reply.outcome) {
      const { failed, rc } = reply.outcome.fault;
      const err = i < failed ? 0 : i === failed ? rc : RC.RUNTIMEINCONSISTENCY;
      w.int(OpCode.error).bool(false).int(err).int(err);
      return;
    }
    const result = reply.outcome.results[i]!;
    // A create answers its path; a createContainer its path and stat (`OpResult.CreateResult`). A
    // create2 answers as a create does: ZooKeeper 3.8 reads every create of a multi as a create
    // (`MultiOperationRecord`); only 3.9 answers create2 with the stat (ZOOKEEPER-4026).
    const type = opCode === OpCode.createContainer ? OpCode.create2 : opCode === OpCode.create2 ? OpCode.create : opCode;
    w.int(type).bool(false).int(0);
    if (type === OpCode.create) w.ustring(result.path!);
    else if (type === OpCode.create2) writeStat(w.ustring(result.path!), result.stat!);
    else if (type === OpCode.setData) writeStat(w, result.stat!);
  });
  w.int(-1).bool(true).int(-1);
}

/** The reply to `frame`: header, then (on success) the body its op code calls for. */
export function writeReply(frame: RequestFrame, rc: number, value: unknown, zxid: bigint): Buffer {
  const w = new JuteWriter(128).int(frame.xid).long(zxid).int(rc);
  if (rc === 0) writeReplyBody(w, frame.opCode, value);
  return w.frame();
}

function writeReplyBody(w: JuteWriter, opCode: number, value: unknown): void {
  switch (opCode) {
    case OpCode.create:
      w.ustring((value as { path: string }).path);
      return;
    case OpCode.create2:
    case OpCode.createContainer: {
      const created = value as { path: string; stat: SimStat };
      writeStat(w.ustring(created.path), created.stat);
      return;
    }
    case OpCode.exists:
      writeStat(w, (value as { stat: SimStat }).stat);
      return;
    case OpCode.getData: {
      const found = value as { data: Buffer; stat: SimStat };
      writeStat(w.buffer(found.data), found.stat);
      return;
    }
    case OpCode.getChildren:
    case OpCode.getChildren2: {
      const found = value as { children: string[]; stat: SimStat };
      w.strings(found.children);
      if (opCode === OpCode.getChildren2) writeStat(w, found.stat);
      return;
    }
    case OpCode.setData:
    case OpCode.setACL:
      writeStat(w, value as SimStat);
      return;
    case OpCode.getACL: {
      const found = value as { acl: readonly ZkAcl[]; stat: SimStat };
      w.int(found.acl.length);
      for (const entry of found.acl) w.int(entry.perms).ustring(entry.scheme).ustring(entry.id);
      writeStat(w, found.stat);
      return;
    }
    case OpCode.sync:
      w.ustring(value as string);
      return;
    case OpCode.multi:
      writeMultiResults(w, value as MultiReply);
      return;
    case OpCode.getEphemerals:
      w.strings(value as string[]);
      return;
    case OpCode.addWatch:
      w.int(0); // an `ErrorResponse(0)` body (`FinalRequestProcessor`)
      return;
    default:
      return; // delete, ping, auth, setWatches, closeSession: the header is the whole reply
  }
}

/** `Stat`, in `zookeeper.jute`'s field order. */
function writeStat(w: JuteWriter, stat: SimStat): void {
  w.long(stat.czxid).long(stat.mzxid).long(BigInt(stat.ctime)).long(BigInt(stat.mtime));
  w.int(stat.version).int(stat.cversion).int(stat.aversion).long(stat.ephemeralOwner);
  w.int(stat.dataLength).int(stat.numChildren).long(stat.pzxid);
}

const EVENT_TYPES = { created: 1, deleted: 2, changed: 3, child: 4 } as const;
const SYNC_CONNECTED = 3;

/** A `WatcherEvent` behind the notification xid (3.8 puts the event's zxid in the header; clients ignore it). */
export function writeNotification(type: keyof typeof EVENT_TYPES, path: string): Buffer {
  return new JuteWriter(64 + path.length).int(Xid.notification).long(-1n).int(0).int(EVENT_TYPES[type]).int(SYNC_CONNECTED).ustring(path).frame();
}

/** The reply to an auth packet the server refuses; it closes the connection after it. */
export function writeAuthFailed(): Buffer {
  return new JuteWriter(16).int(Xid.auth).long(0n).int(RC.AUTHFAILED).frame();
}
