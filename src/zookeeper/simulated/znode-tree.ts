import { createHash } from 'node:crypto';
import { ZOOKEEPER_ERROR_CODES as RC } from '../../errors/zookeeper.error.js';
import { OPEN_ACL_UNSAFE, ZK_PERMS, type ZkAcl } from '../types.js';
import { CONFIG_NODE } from '../ensemble-config.js';
import { basenameOf, parentOf } from '../znode-path.js';
import { WatchTables, type Notification, type ResentWatches } from './watch-tables.js';

export type { Notification, ResentWatches } from './watch-tables.js';

/**
 * `ephemeralOwner` of a container node as the server stores it (`Long.MIN_VALUE`). Clients read
 * `0` for it (the server hides the marker), so it never leaves the tree.
 */
export const CONTAINER_OWNER = 0x8000000000000000n;

export interface SimStat {
  czxid: bigint;
  mzxid: bigint;
  pzxid: bigint;
  ctime: number;
  mtime: number;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: bigint;
  dataLength: number;
  numChildren: number;
}

interface Znode {
  data: Buffer;
  acl: readonly ZkAcl[];
  /** `cversion` and `ephemeralOwner` as the server keeps them; `statOf` gives what clients read. */
  readonly stat: SimStat;
  /**
   * Children created, ever (signed 32 bits): the sequence suffix of the next sequential child.
   * The server keeps this as its cversion and shows clients `2 * creates - numChildren`, i.e.
   * creates plus deletes, so the cversion a client reads runs ahead of the next suffix once a
   * child was deleted. It starts at the tree's `sequenceStart` (0 on a real server).
   */
  creates: number;
  /** Where `creates` started. */
  readonly start: number;
  /** Insertion order; listings are shuffled by the server anyway (see `SimulatedEnsemble`). */
  readonly children: Set<string>;
}

/** `/zookeeper`, its `quota` and its read-only `config` (`ZooDefs.Ids.READ_ACL_UNSAFE`), parents first. */
const SYSTEM_NODES: readonly (readonly [string, readonly ZkAcl[]])[] = [
  ['/zookeeper', OPEN_ACL_UNSAFE],
  [CONFIG_NODE, [{ perms: ZK_PERMS.READ, scheme: 'world', id: 'anyone' }]],
  ['/zookeeper/quota', OPEN_ACL_UNSAFE],
];

/** A committed change, in zxid order: what the leader decided and every replica applies. */
export type Txn =
  | {
      readonly type: 'create';
      readonly zxid: bigint;
      readonly time: number;
      readonly path: string;
      readonly data: Buffer;
      readonly owner: bigint;
      readonly acl: readonly ZkAcl[];
      /** Its child-create count from the start: a node restored from a file (see `PersistentNode`) keeps naming sequential children where it left off. */
      readonly sequence?: number;
    }
  | { readonly type: 'delete'; readonly zxid: bigint; readonly time: number; readonly path: string }
  | { readonly type: 'setData'; readonly zxid: bigint; readonly time: number; readonly path: string; readonly data: Buffer }
  | { readonly type: 'setAcl'; readonly zxid: bigint; readonly time: number; readonly path: string; readonly acl: readonly ZkAcl[] }
  /** A `multi`: its ops' transactions, applied in order under one zxid. */
  | { readonly type: 'multi'; readonly zxid: bigint; readonly time: number; readonly txns: readonly Txn[] }
  /** A session ended (closed or expired): its ephemeral nodes go, in this order. */
  | { readonly type: 'closeSession'; readonly zxid: bigint; readonly time: number; readonly session: bigint; readonly paths: readonly string[] }
  | { readonly type: 'createSession'; readonly zxid: bigint; readonly time: number; readonly session: bigint }
  /** A reconfig committed: `/zookeeper/config` holds the new membership (`PrepRequestProcessor`: a SetDataTxn of version -1). */
  | { readonly type: 'reconfig'; readonly zxid: bigint; readonly time: number; readonly data: Buffer }
  /** A write the leader refused: it still takes a zxid and goes through the log. */
  | { readonly type: 'error'; readonly zxid: bigint; readonly time: number; readonly rc: number };

/** A write as a client sends it, before the leader turns it into a transaction. */
export type WriteRequest =
  | { readonly op: 'create'; readonly path: string; readonly data: Buffer; readonly flags: number; readonly acl?: readonly ZkAcl[] }
  | { readonly op: 'delete'; readonly path: string; readonly version: number }
  | { readonly op: 'setData'; readonly path: string; readonly data: Buffer; readonly version: number }
  | { readonly op: 'setAcl'; readonly path: string; readonly acl: readonly ZkAcl[]; readonly version: number };

/** One op of a `multi`: a write, or a check of a node's data version (-1: that it exists). */
export type MultiWrite = Exclude<WriteRequest, { op: 'setAcl' }> | { readonly op: 'check'; readonly path: string; readonly version: number };

/** A `multi` the leader refused: the index of the op that failed, and its code. */
export interface MultiFault {
  readonly failed: number;
  readonly rc: number;
}

/** What one op of an applied `multi` answers: a create its path and the node's stat, a setData the stat, a delete or check nothing. */
export interface MultiOpResult {
  readonly path?: string;
  readonly stat?: SimStat;
}

/** A persistent node (or container) as a file keeps it between two runs of a server (see `ZnodeTree.persistentNodes`). */
export interface PersistentNode {
  readonly path: string;
  readonly data: Buffer;
  readonly acl: readonly ZkAcl[];
  readonly container: boolean;
  /** Its child-create count: the suffix of its next sequential child. */
  readonly sequence: number;
}

/** The create flags of the C client. */
export const CREATE_FLAGS = { ephemeral: 1, sequential: 2, container: 4 } as const;

/** Who asks: the session and the identities it authenticated (`digest:user:hash`). */
export interface Asker {
  readonly session: bigint;
  readonly ids: readonly string[];
}

/** The failure of a request, as the server's return code. */
export class ZkFault {
  constructor(readonly rc: number) {}
}

// Why this file is long: it is ZooKeeper's DataTree, one structure: every write's checks (versions,
// ACLs, ephemerals, sequence numbers, containers), the transactions they become, and the watches
// those transactions fire, which must see the tree exactly as each transaction leaves it.

/**
 * ZooKeeper's data tree as one server holds it: znodes with their stats and ACLs, and the watches
 * that this server's clients left on them. The leader's copy validates writes (`prepare`) in the
 * order of ZooKeeper's `PrepRequestProcessor`; every copy applies the resulting transactions in
 * zxid order (`apply`) and returns the notifications they trigger.
 */
export class ZnodeTree {
  private readonly nodes = new Map<string, Znode>();
  /** The watches this server's clients left (see `WatchTables`). */
  private readonly watches = new WatchTables();
  /** The zxid of the last transaction applied. */
  lastZxid = 0n;

  /** `sequenceStart`: where every node's child-create count starts (a simulation's option, to reach the wrap at 2^31 early). */
  constructor(private readonly sequenceStart = 0) {
    this.nodes.set('/', { data: Buffer.alloc(0), acl: OPEN_ACL_UNSAFE, stat: newStat(0n, 0, 0n, 0), children: new Set(), creates: sequenceStart, start: sequenceStart });
    // What the server's `DataTree` makes before any transaction: no zxid, and no create counted in
    // the parent (so `/` shows cversion -1, as on a fresh server). An empty `/zookeeper/config` is
    // what a standalone server has: clients that follow the membership (`EnsembleTracker`) read it.
    for (const [path, acl] of SYSTEM_NODES) {
      // The config node's ACL is set after it is made (`setACL(..., -1)`), which leaves its aversion at -1.
      const stat = { ...newStat(0n, 0, 0n, 0), aversion: path === CONFIG_NODE ? -1 : 0 };
      this.nodes.set(path, { data: Buffer.alloc(0), acl, stat, children: new Set(), creates: sequenceStart, start: sequenceStart });
      const parent = this.nodes.get(parentOf(path))!;
      parent.children.add(basenameOf(path));
      parent.stat.numChildren = parent.children.size;
    }
  }

  /** The leader's check of a write against this (its) tree: the transaction, or the failure. */
  prepare(request: WriteRequest, asker: Asker, zxid: bigint, time: number): Txn | ZkFault {
    const { path } = request;
    if (!isValidPath(path, request.op === 'create' && (request.flags & CREATE_FLAGS.sequential) !== 0)) return new ZkFault(RC.BADARGUMENTS);
    switch (request.op) {
      case 'create': {
        if (path === '/') return new ZkFault(RC.NODEEXISTS);
        // As `PrepRequestProcessor`: the ACL is fixed up (and refused) before the parent is looked at.
        const acl = request.acl === undefined ? OPEN_ACL_UNSAFE : fixupAcl(request.acl, asker);
        if (!acl) return new ZkFault(RC.INVALIDACL);
        const parent = this.nodes.get(parentOf(path));
        if (!parent) return new ZkFault(RC.NONODE);
        if (!permits(parent.acl, ZK_PERMS.CREATE, asker)) return new ZkFault(RC.NOAUTH);
        const sequential = (request.flags & CREATE_FLAGS.sequential) !== 0;
        const created = sequential ? path + formatSequence(parent.creates) : path;
        if (this.nodes.has(created)) return new ZkFault(RC.NODEEXISTS);
        if (parent.stat.ephemeralOwner !== 0n && parent.stat.ephemeralOwner !== CONTAINER_OWNER) return new ZkFault(RC.NOCHILDRENFOREPHEMERALS);
        const owner =
          (request.flags & CREATE_FLAGS.container) !== 0 ? CONTAINER_OWNER : (request.flags & CREATE_FLAGS.ephemeral) !== 0 ? asker.session : 0n;
        return { type: 'create', zxid, time, path: created, data: request.data, owner, acl };
      }
      case 'delete': {
        // `PrepRequestProcessor.getParentPathAndValidate`: `/` and the system nodes (`isSpecialPath`) are never deleted.
        if (path === '/' || SYSTEM_NODES.some(([system]) => system === path)) return new ZkFault(RC.BADARGUMENTS);
        const parent = this.nodes.get(parentOf(path));
        const node = this.nodes.get(path);
        if (!parent || !node) return new ZkFault(RC.NONODE);
        if (!permits(parent.acl, ZK_PERMS.DELETE, asker)) return new ZkFault(RC.NOAUTH);
        if (request.version !== -1 && request.version !== node.stat.version) return new ZkFault(RC.BADVERSION);
        if (node.children.size > 0) return new ZkFault(RC.NOTEMPTY);
        return { type: 'delete', zxid, time, path };
      }
      case 'setData': {
        const node = this.nodes.get(path);
        if (!node) return new ZkFault(RC.NONODE);
        if (!permits(node.acl, ZK_PERMS.WRITE, asker)) return new ZkFault(RC.NOAUTH);
        if (request.version !== -1 && request.version !== node.stat.version) return new ZkFault(RC.BADVERSION);
        return { type: 'setData', zxid, time, path, data: request.data };
      }
      case 'setAcl': {
        // The server fixes up the ACL first: an anonymous `auth` ACL is INVALIDACL, even on a node it may not administer.
        const acl = fixupAcl(request.acl, asker);
        if (!acl) return new ZkFault(RC.INVALIDACL);
        const node = this.nodes.get(path);
        if (!node) return new ZkFault(RC.NONODE);
        if (!permits(node.acl, ZK_PERMS.ADMIN, asker)) return new ZkFault(RC.NOAUTH);
        if (request.version !== -1 && request.version !== node.stat.aversion) return new ZkFault(RC.BADVERSION);
        return { type: 'setAcl', zxid, time, path, acl };
      }
    }
  }

  /**
   * The leader's check of a `multi` (`PrepRequestProcessor`, with its pending changes): each op
   * against the tree as the ones before it leave it, on a scratch copy. The transaction of them
   * all, or the first op that failed.
   */
  prepareMulti(ops: readonly MultiWrite[], asker: Asker, zxid: bigint, time: number): { txn: Txn; results: MultiOpResult[] } | MultiFault {
    const scratch = this.copy();
    const txns: Txn[] = [];
    const results: MultiOpResult[] = [];
    for (const [i, op] of ops.entries()) {
      if (op.op === 'check') {
        const node = isValidPath(op.path, false) ? scratch.nodes.get(op.path) : undefined;
        const rc = !isValidPath(op.path, false) ? RC.BADARGUMENTS : !node ? RC.NONODE : op.version !== -1 && op.version !== node.stat.version ? RC.BADVERSION : 0;
        if (rc !== 0) return { failed: i, rc };
        results.push({});
        continue;
      }
      const txn = scratch.prepare(op, asker, zxid, time);
      if (txn instanceof ZkFault) return { failed: i, rc: txn.rc };
      scratch.apply(txn);
      txns.push(txn);
      // The stat as this op left the node (a later op of the same multi may change or delete it).
      const path = txn.type === 'create' ? txn.path : op.path;
      const node = scratch.nodes.get(path);
      results.push(txn.type === 'delete' ? {} : { ...(txn.type === 'create' && { path }), stat: statOf(node!) });
    }
    return { txn: { type: 'multi', zxid, time, txns }, results };
  }

  /** The transaction that ends `session`: its ephemeral nodes, deepest first. */
  closeSession(session: bigint, zxid: bigint, time: number): Txn {
    const paths = [...this.nodes].filter(([, node]) => node.stat.ephemeralOwner === session).map(([path]) => path);
    return { type: 'closeSession', zxid, time, session, paths: paths.sort().reverse() };
  }

  /** Containers that had a child once and have none now: the container sweep deletes them. */
  emptyContainers(): string[] {
    return [...this.nodes].filter(([, n]) => n.stat.ephemeralOwner === CONTAINER_OWNER && n.children.size === 0 && n.creates !== n.start).map(([p]) => p);
  }

  /** Applies a committed transaction; returns the notifications of this server's watches it fired. */
  apply(txn: Txn): Notification[] {
    this.lastZxid = txn.zxid;
    const fired: Notification[] = [];
    switch (txn.type) {
      case 'create': {
        const parent = this.nodes.get(parentOf(txn.path))!;
        const creates = txn.sequence ?? this.sequenceStart;
        this.nodes.set(txn.path, { data: txn.data, acl: txn.acl, stat: newStat(txn.zxid, txn.time, txn.owner, txn.data.length), children: new Set(), creates, start: creates });
        parent.children.add(basenameOf(txn.path));
        parent.creates = (parent.creates + 1) | 0;
        parent.stat.pzxid = txn.zxid;
        parent.stat.numChildren = parent.children.size;
        this.watches.trigger('data', txn.path, 'created', txn.acl, fired);
        this.watches.trigger('child', parentOf(txn.path), 'child', parent.acl, fired);
        break;
      }
      case 'delete':
        this.remove(txn.path, txn.zxid, fired);
        break;
      case 'closeSession':
        for (const path of txn.paths) if (this.nodes.has(path)) this.remove(path, txn.zxid, fired);
        break;
      case 'multi':
        for (const sub of txn.txns) fired.push(...this.apply(sub));
        break;
      case 'setData': {
        const node = this.nodes.get(txn.path)!;
        node.data = txn.data;
        node.stat.version++;
        node.stat.mzxid = txn.zxid;
        node.stat.mtime = txn.time;
        node.stat.dataLength = txn.data.length;
        this.watches.trigger('data', txn.path, 'changed', node.acl, fired);
        break;
      }
      case 'reconfig': {
        // `DataTree.setData` with the txn's version, -1: the config node's version is -1 after every reconfig.
        const node = this.nodes.get(CONFIG_NODE)!;
        Object.assign(node.stat, { version: -1, mzxid: txn.zxid, mtime: txn.time, dataLength: txn.data.length });
        node.data = txn.data;
        this.watches.trigger('data', CONFIG_NODE, 'changed', node.acl, fired);
        break;
      }
      case 'setAcl': {
        const node = this.nodes.get(txn.path)!;
        node.acl = txn.acl;
        node.stat.aversion++;
        break;
      }
      case 'createSession':
      case 'error':
        break;
    }
    return fired;
  }

  /** A read's answer: the node, or the failure (`NONODE`, `NOAUTH` without READ). */
  read(path: string, asker: Asker, perms: number = ZK_PERMS.READ): { data: Buffer; stat: SimStat; children: string[]; acl: readonly ZkAcl[] } | ZkFault {
    if (!isValidPath(path, false)) return new ZkFault(RC.BADARGUMENTS);
    const node = this.nodes.get(path);
    if (!node) return new ZkFault(RC.NONODE);
    if (perms !== 0 && !permits(node.acl, perms, asker)) return new ZkFault(RC.NOAUTH);
    return { data: node.data, stat: statOf(node), children: [...node.children], acl: node.acl };
  }

  has(path: string): boolean {
    return this.nodes.has(path);
  }

  /** Leaves a one-shot watch: `data` for getData and exists, `child` for getChildren. */
  watch(kind: 'data' | 'child', path: string, session: bigint): void {
    this.watches.add(kind, path, session);
  }

  /** `addWatch` (ZooKeeper 3.6+): a watch that stays, on `path`, or (`recursive`) on it and every node below it. It needs no node. */
  addWatch(path: string, session: bigint, recursive: boolean): void {
    this.watches.addPersistent(path, session, recursive);
  }

  /** Whether any session has a data (or exists) watch on `path` on this server. */
  isWatched(path: string): boolean {
    return this.watches.has('data', path);
  }

  /** Drops every watch of `session` (its connection to this server closed). */
  forgetWatches(session: bigint): void {
    this.watches.forget(session);
  }

  /**
   * ZooKeeper's `SetWatches` on a reconnection: the client re-sends its watches with the last
   * zxid it saw; those whose node changed since then fire at once, the others are set again.
   */
  setWatches(session: bigint, relativeZxid: bigint, watches: ResentWatches): Notification[] {
    const fired: Notification[] = [];
    for (const path of watches.data) {
      const node = this.nodes.get(path);
      if (!node) fired.push({ session, type: 'deleted', path });
      else if (node.stat.mzxid > relativeZxid) fired.push({ session, type: 'changed', path });
      else this.watch('data', path, session);
    }
    for (const path of watches.exist) {
      if (this.nodes.has(path)) fired.push({ session, type: 'created', path });
      else this.watch('data', path, session);
    }
    for (const path of watches.child) {
      const node = this.nodes.get(path);
      if (!node) fired.push({ session, type: 'deleted', path });
      else if (node.stat.pzxid > relativeZxid) fired.push({ session, type: 'child', path });
      else this.watch('child', path, session);
    }
    // Then the persistent ones, set again as they were, with no event for what changed meanwhile,
    // and after the one-shot ones, whose mode they take over on the same path (`DataTree.setWatches`).
    for (const path of watches.persistent ?? []) this.addWatch(path, session, false);
    for (const path of watches.recursive ?? []) this.addWatch(path, session, true);
    return fired;
  }

  /**
   * The session's watches at `path` of `type` (`WatcherType`: children 1, data 2, any 3; data
   * covers exists watches, which the server keeps in the same table): whether it has one, and with
   * `remove`, it has none left (`FinalRequestProcessor`, checkWatches and removeWatches).
   */
  watchesOf(session: bigint, path: string, type: number, remove: boolean): boolean {
    const tables = type === 1 ? (['child'] as const) : type === 2 ? (['data'] as const) : (['data', 'child'] as const);
    let found = false;
    for (const table of tables) if (this.watches.holds(table, path, session, remove)) found = true;
    return found;
  }

  /** `session`'s ephemeral nodes whose path starts with `prefix` (`/` or empty: all of them), as `getEphemerals` answers. */
  ephemeralsOf(session: bigint, prefix: string): string[] {
    const all = prefix.trim() === '' || prefix.trim() === '/';
    return [...this.nodes].filter(([path, node]) => node.stat.ephemeralOwner === session && (all || path.startsWith(prefix))).map(([path]) => path);
  }

  /** Every node no session owns (persistent nodes and containers) but `/`, parents before children: what outlives the server. */
  persistentNodes(): PersistentNode[] {
    return [...this.nodes]
      .filter(([path, node]) => path !== '/' && (node.stat.ephemeralOwner === 0n || node.stat.ephemeralOwner === CONTAINER_OWNER))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([path, node]) => ({ path, data: node.data, acl: node.acl, container: node.stat.ephemeralOwner === CONTAINER_OWNER, sequence: node.creates }));
  }

  /** Every node but `/` with its owner, in path order: what the checks compare. */
  snapshot(): { path: string; owner: bigint; dataLength: number }[] {
    return [...this.nodes]
      .filter(([path]) => path !== '/')
      .map(([path, node]) => ({ path, owner: statOf(node).ephemeralOwner, dataLength: node.data.length }))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /** A copy of the nodes (not the watches): for `prepareMulti` to try ops on, and the snapshot a joining member syncs from. */
  copy(): ZnodeTree {
    const copy = new ZnodeTree(this.sequenceStart);
    for (const [path, node] of this.nodes) copy.nodes.set(path, { ...node, stat: { ...node.stat }, children: new Set(node.children) });
    copy.lastZxid = this.lastZxid;
    return copy;
  }

  private remove(path: string, zxid: bigint, fired: Notification[]): void {
    const node = this.nodes.get(path)!;
    this.nodes.delete(path);
    const parent = this.nodes.get(parentOf(path))!;
    parent.children.delete(basenameOf(path));
    parent.stat.pzxid = zxid;
    parent.stat.numChildren = parent.children.size;
    // A session with both a data and a child watch on the node is told once (`DataTree.deleteNode`).
    const told = this.watches.trigger('data', path, 'deleted', node.acl, fired);
    this.watches.trigger('child', path, 'deleted', node.acl, fired, told);
    this.watches.trigger('child', parentOf(path), 'child', parent.acl, fired);
  }
}

/** The stat as a client reads it: the container marker hidden, cversion as creates plus deletes. */
function statOf(node: Znode): SimStat {
  const ephemeralOwner = node.stat.ephemeralOwner === CONTAINER_OWNER ? 0n : node.stat.ephemeralOwner;
  return { ...node.stat, ephemeralOwner, cversion: (2 * (node.creates - node.start) - node.children.size + node.start) | 0 };
}

function newStat(zxid: bigint, time: number, owner: bigint, dataLength: number): SimStat {
  return { czxid: zxid, mzxid: zxid, pzxid: zxid, ctime: time, mtime: time, version: 0, cversion: 0, aversion: 0, ephemeralOwner: owner, dataLength, numChildren: 0 };
}

/** `%010d` of the parent's signed 32-bit count of child creates, as the server names sequential nodes (`-000000005` below zero). */
export function formatSequence(creates: number): string {
  return creates < 0 ? `-${String(-creates).padStart(9, '0')}` : String(creates).padStart(10, '0');
}

/** ZooKeeper's `PathUtils.validatePath` for the paths a client can send. */
function isValidPath(path: string, sequential: boolean): boolean {
  if (typeof path !== 'string' || !path.startsWith('/')) return false;
  if (path === '/') return true;
  if (path.endsWith('/') && !sequential) return false;
  const parts = path.slice(1).split('/');
  return parts.every((part, i) => (part.length > 0 || (sequential && i === parts.length - 1)) && part !== '.' && part !== '..' && !part.includes('\u0000'));
}

/** The digest identity of `user:password`, as the server derives it. */
export function digestId(credentials: string): string {
  const user = credentials.slice(0, credentials.indexOf(':'));
  return `${user}:${createHash('sha1').update(credentials).digest('base64')}`;
}

/** Whether `acl` gives `asker` the permission `perm` (`ZooKeeperServer.checkACL`, for the world and digest schemes). */
export function permits(acl: readonly ZkAcl[], perm: number, asker: Asker): boolean {
  return acl.some((entry) => (entry.perms & perm) !== 0 && (entry.scheme === 'world' ? entry.id === 'anyone' : entry.scheme === 'digest' && asker.ids.includes(entry.id)));
}

/** The server's `fixupACL`: `auth` entries become the asker's identities; none to give is INVALIDACL. */
function fixupAcl(acl: readonly ZkAcl[], asker: Asker): ZkAcl[] | undefined {
  if (acl.length === 0) return undefined;
  const fixed: ZkAcl[] = [];
  for (const entry of acl) {
    if (entry.scheme !== 'auth') {
      fixed.push(entry);
      continue;
    }
    if (asker.ids.length === 0) return undefined;
    for (const id of asker.ids) fixed.push({ perms: entry.perms, scheme: 'digest', id });
  }
  return fixed;
}
