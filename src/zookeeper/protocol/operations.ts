import type { ZkAcl, ZkIdentity, ZkStat } from '../types.js';
import type { JuteReader } from './jute-reader.js';
import type { JuteWriter } from './jute-writer.js';
import { AddWatchMode, OpCode, WatcherType } from './op-codes.js';
import { readAcl, readStatRecord, writeAcl } from './records.js';

/**
 * One request of the protocol: its op code, how its body is written, and how a successful reply
 * body is read. The reply header's error code decides first: an error reply has no body (except
 * a multi's, which carries one result per op even when it failed).
 */
export interface Operation<T> {
  /** Operation name, as errors and the leader-contact rule (`routeOf`) name it. */
  readonly name: string;
  readonly opCode: number;
  /** The path as sent (chroot included); undefined for requests without one. */
  readonly path: string | undefined;
  write(writer: JuteWriter): void;
  read(reader: JuteReader): T;
  /** Read the body of an error reply too (multi), instead of failing the request with its code. */
  readonly readsErrors?: boolean;
}

const nothing = () => undefined;

export function createOp(path: string, data: Buffer, acl: readonly ZkAcl[], flags: number, ttlMs?: number): Operation<{ path: string; stat: ZkStat }> {
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
      if (ttlMs !== undefined) w.long(BigInt(ttlMs));
    },
    read: (r) => ({ path: r.ustring(), stat: readStatRecord(r) }),
  };
}

export function deleteOp(path: string, version: number): Operation<void> {
  return { name: 'delete', opCode: OpCode.delete, path, write: (w) => void w.ustring(path).int(version), read: nothing };
}

export function existsOp(path: string, watch: boolean): Operation<ZkStat> {
  return { name: 'exists', opCode: OpCode.exists, path, write: (w) => void w.ustring(path).bool(watch), read: readStatRecord };
}

export function getDataOp(path: string, watch: boolean): Operation<{ data: Buffer; stat: ZkStat }> {
  return {
    name: 'getData',
    opCode: OpCode.getData,
    path,
    write: (w) => void w.ustring(path).bool(watch),
    read: (r) => ({ data: r.buffer(), stat: readStatRecord(r) }),
  };
}

export function setDataOp(path: string, data: Buffer, version: number): Operation<ZkStat> {
  return { name: 'setData', opCode: OpCode.setData, path, write: (w) => void w.ustring(path).buffer(data).int(version), read: readStatRecord };
}

export function getChildrenOp(path: string, watch: boolean): Operation<{ children: string[]; stat: ZkStat }> {
  return {
    name: 'getChildren',
    opCode: OpCode.getChildren2,
    path,
    write: (w) => void w.ustring(path).bool(watch),
    read: (r) => ({ children: r.strings('children'), stat: readStatRecord(r) }),
  };
}

export function getAclOp(path: string): Operation<{ acl: ZkAcl[]; stat: ZkStat }> {
  return { name: 'getAcl', opCode: OpCode.getACL, path, write: (w) => void w.ustring(path), read: (r) => ({ acl: readAcl(r), stat: readStatRecord(r) }) };
}

export function setAclOp(path: string, acl: readonly ZkAcl[], version: number): Operation<ZkStat> {
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

export function syncOp(path: string): Operation<string> {
  return { name: 'sync', opCode: OpCode.sync, path, write: (w) => void w.ustring(path), read: (r) => r.ustring() };
}

export function addWatchOp(path: string, recursive: boolean): Operation<void> {
  const mode = recursive ? AddWatchMode.persistentRecursive : AddWatchMode.persistent;
  // The server answers with an `ErrorResponse(0)` body (`FinalRequestProcessor`).
  return { name: 'addWatch', opCode: OpCode.addWatch, path, write: (w) => void w.ustring(path).int(mode), read: (r) => void r.int() };
}

export function removeWatchesOp(path: string, type: keyof typeof WatcherType): Operation<void> {
  return { name: 'removeWatches', opCode: OpCode.removeWatches, path, write: (w) => void w.ustring(path).int(WatcherType[type]), read: nothing };
}

export function getEphemeralsOp(prefixPath: string): Operation<string[]> {
  return { name: 'getEphemerals', opCode: OpCode.getEphemerals, path: prefixPath, write: (w) => void w.ustring(prefixPath), read: (r) => r.strings('ephemerals') };
}

/** The identities the server has for this session (`ClientInfo`: scheme and user). */
export function whoAmIOp(): Operation<ZkIdentity[]> {
  return {
    name: 'whoAmI',
    opCode: OpCode.whoAmI,
    path: undefined,
    write: nothing,
    read: (r) => r.vector('clientInfo', 8, () => ({ scheme: r.ustring(), user: r.ustring() })),
  };
}

export function closeSessionOp(): Operation<void> {
  return { name: 'closeSession', opCode: OpCode.closeSession, path: undefined, write: nothing, read: nothing };
}

/** `AuthPacket` (sent with the reserved auth xid; the server answers AUTHFAILED by closing the session). */
export function writeAuth(writer: JuteWriter, scheme: string, credentials: Buffer): void {
  writer.int(0).ustring(scheme).buffer(credentials);
}

/** The watches a reconnecting client asks the server to set again (`SetWatches2`). */
export interface WatchesToRestore {
  readonly data: readonly string[];
  readonly exist: readonly string[];
  readonly child: readonly string[];
  readonly persistent: readonly string[];
  readonly persistentRecursive: readonly string[];
}

/**
 * `setWatches2` (or the older `setWatches` when no persistent watch is among them, as the Java
 * client does for older servers): the server fires at once every watch whose node changed after
 * `relativeZxid`, and sets the others again.
 */
export function setWatchesOp(relativeZxid: bigint, watches: WatchesToRestore): Operation<void> {
  const persistent = watches.persistent.length + watches.persistentRecursive.length > 0;
  return {
    name: 'setWatches',
    opCode: persistent ? OpCode.setWatches2 : OpCode.setWatches,
    path: undefined,
    write: (w) => {
      w.long(relativeZxid).strings(watches.data).strings(watches.exist).strings(watches.child);
      if (persistent) w.strings(watches.persistent).strings(watches.persistentRecursive);
    },
    read: nothing,
  };
}

