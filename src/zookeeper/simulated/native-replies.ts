import { ZOOKEEPER_ERROR_CODES as RC } from '../../errors/zookeeper.error.js';
import type { NativeStat } from '../native-binding.js';
import type { ClientRequest } from './server-connection.js';
import type { SimStat } from './znode-tree.js';

// What the simulated C client (`SimulatedHandle`) says in the native binding's own terms:
// stats, return-code texts, and the lines it writes to the simulation's trace.

/** A stat as the binding reports it (zxids as numbers, the owner as hex). */
export function toNativeStat(stat: SimStat): NativeStat {
  return {
    czxid: Number(stat.czxid),
    mzxid: Number(stat.mzxid),
    pzxid: Number(stat.pzxid),
    ctime: new Date(stat.ctime),
    mtime: new Date(stat.mtime),
    version: stat.version,
    cversion: stat.cversion,
    aversion: stat.aversion,
    ephemeralOwner: stat.ephemeralOwner.toString(16),
    dataLength: stat.dataLength,
    numChildren: stat.numChildren,
  };
}

const ZERRORS: Record<number, string> = {
  0: 'ok',
  [RC.CONNECTIONLOSS]: 'connection loss',
  [RC.BADARGUMENTS]: 'bad arguments',
  [RC.NONODE]: 'no node',
  [RC.NOAUTH]: 'not authenticated',
  [RC.BADVERSION]: 'bad version',
  [RC.NOCHILDRENFOREPHEMERALS]: 'no children for ephemerals',
  [RC.NODEEXISTS]: 'node exists',
  [RC.NOTEMPTY]: 'not empty',
  [RC.SESSIONEXPIRED]: 'session expired',
  [RC.INVALIDACL]: 'invalid acl',
  [RC.AUTHFAILED]: 'authentication failed',
  [RC.CLOSING]: 'zookeeper is closing',
  [RC.SESSIONMOVED]: 'session moved to another server, so operation is ignored',
};

/** The C client's `zerror` text of a return code. */
export function zerror(rc: number): string {
  return ZERRORS[rc] ?? `unknown error ${rc}`;
}

/** A request, for the trace. */
export function describeRequest(request: ClientRequest): string {
  switch (request.op) {
    case 'create':
      return `create ${request.path} flags=${request.flags} (${request.data.length} B)`;
    case 'setData':
      return `setData ${request.path} v=${request.version} (${request.data.length} B)`;
    case 'delete':
      return `delete ${request.path} v=${request.version}`;
    case 'getData':
    case 'exists':
    case 'getChildren':
      return `${request.op} ${request.path}${request.watch ? ' +watch' : ''}`;
    case 'auth':
      return 'auth';
    default:
      return 'path' in request ? `${request.op} ${request.path}` : request.op;
  }
}

/** The notable part of a reply, for the trace. */
export function describeReply(value: unknown): string {
  if (typeof value === 'string') return ` ${value}`;
  if (value && typeof value === 'object' && 'path' in value && typeof (value as { path?: unknown }).path === 'string') return ` ${(value as { path: string }).path}`;
  if (value && typeof value === 'object' && 'children' in value && Array.isArray((value as { children?: unknown }).children)) {
    return ` [${(value as { children: string[] }).children.length} children]`;
  }
  return '';
}
