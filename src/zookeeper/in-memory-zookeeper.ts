import { BehaviorSubject, type Observable } from 'rxjs';
import { ZOOKEEPER_ERROR_CODES, ZooKeeperError, type ZooKeeperErrorName } from '../errors/zookeeper.error.js';
import type { SessionStateChange } from './session-state.js';
import { OPEN_ACL_UNSAFE, type CreateMode, type Watcher, type WatchEventType, type ZkAcl, type ZkStat } from './types.js';
import type { ZkSessionClient } from './zk-session-client.js';

interface Znode {
  data: Buffer;
  stat: { -readonly [K in keyof ZkStat]: ZkStat[K] };
  readonly children: Set<string>;
  /** One-shot watches left by `getData` (fire on change and deletion). */
  readonly dataWatches: Set<Watcher>;
}

/**
 * A znode tree in this process's memory, with always-connected sessions over it: what runs recipe
 * code where no server may be involved (the hand-over rehearsal, see `rehearseHandOver`).
 *
 * It keeps the parts of ZooKeeper's data model the recipes rely on: sequential and ephemeral
 * nodes, container parents, data versions, `czxid` and `pzxid`, one-shot `getData` and `exists`
 * watches, and ZooKeeper's order: a change's notifications are delivered before the replies to
 * anything sent after it. It has no ACLs, no child watches (the facade has none) and no
 * connection to lose. It is not a test double: tests prove the recipes against a real server.
 *
 * Why not the simulated ensemble that `nestjs-zk-lock/testing` runs on: the rehearsal runs in
 * every production process, which would then load the simulator and run `ZkSession` and
 * `ZooKeeperClient` (which the real hand-over goes through) over a second binding, with an effect
 * on their compiled code that only the W4 benchmark could tell; and the rehearsal must know when
 * the successor watches the leader's node (`watched`), which the ensemble does not tell.
 */
export class InMemoryZooKeeper {
  private readonly nodes = new Map<string, Znode>();
  /** `exists` watches, also on paths that do not exist yet (they fire on creation). */
  private readonly existsWatches = new Map<string, Set<Watcher>>();
  private readonly watchListeners = new Set<(path: string) => void>();
  private zxid = 0n;
  private sessions = 0;

  constructor() {
    this.nodes.set('/', newZnode(Buffer.alloc(0), 0n, '0'));
  }

  /** A new session over this tree; its nodes' `ephemeralOwner` is its id. */
  connect(): ZkSessionClient {
    return new InMemorySession(this, (0x7e57_0000n + BigInt(++this.sessions)).toString(16));
  }

  /** Resolves once a watch (data or exists) is set on `path`. */
  watched(path: string): Promise<void> {
    return new Promise((resolve) => {
      const listener = (watchedPath: string) => {
        if (watchedPath !== path) return;
        this.watchListeners.delete(listener);
        resolve();
      };
      this.watchListeners.add(listener);
    });
  }

  create(owner: string, path: string, data: Buffer | null, mode: CreateMode): string {
    const parentPath = parentOf(path);
    const parent = this.nodes.get(parentPath);
    if (!parent) throw failure('NONODE', 'create', path);
    if (parent.stat.ephemeralOwner !== '0' && parent.stat.ephemeralOwner !== CONTAINER) throw failure('NOCHILDRENFOREPHEMERALS', 'create', path);
    const created = mode === 'ephemeral_sequential' || mode === 'persistent_sequential' ? `${path}${String(parent.stat.cversion).padStart(10, '0')}` : path;
    if (this.nodes.has(created)) throw failure('NODEEXISTS', 'create', created);
    const zxid = ++this.zxid;
    this.nodes.set(created, newZnode(data ?? Buffer.alloc(0), zxid, mode.startsWith('ephemeral') ? owner : '0'));
    parent.children.add(created.slice(created.lastIndexOf('/') + 1));
    parent.stat.cversion++;
    parent.stat.pzxid = zxid;
    parent.stat.numChildren++;
    this.notify(created, 'created', this.takeExistsWatches(created));
    return created;
  }

  getChildren(path: string): { children: string[]; stat: ZkStat } {
    const node = this.node(path, 'getChildren');
    return { children: [...node.children], stat: { ...node.stat } };
  }

  getData(path: string, watcher: Watcher | undefined): { data: Buffer; stat: ZkStat } {
    const node = this.node(path, 'getData'); // no node, no watch: as the server does
    if (watcher) this.watch(node.dataWatches, path, watcher);
    return { data: node.data, stat: { ...node.stat } };
  }

  exists(path: string, watcher: Watcher | undefined): ZkStat | null {
    if (watcher) {
      let watches = this.existsWatches.get(path);
      if (!watches) this.existsWatches.set(path, (watches = new Set()));
      this.watch(watches, path, watcher);
    }
    const node = this.nodes.get(path);
    return node ? { ...node.stat } : null;
  }

  setData(path: string, data: Buffer, version: number): ZkStat {
    const node = this.node(path, 'setData');
    if (version !== -1 && version !== node.stat.version) throw failure('BADVERSION', 'setData', path);
    node.data = data;
    node.stat.version++;
    node.stat.mzxid = ++this.zxid;
    node.stat.dataLength = data.length;
    this.notify(path, 'changed', [...node.dataWatches, ...this.takeExistsWatches(path)]);
    node.dataWatches.clear();
    return { ...node.stat };
  }

  delete(path: string, version: number): void {
    const node = this.node(path, 'delete');
    if (version !== -1 && version !== node.stat.version) throw failure('BADVERSION', 'delete', path);
    if (node.children.size > 0) throw failure('NOTEMPTY', 'delete', path);
    this.nodes.delete(path);
    const parentPath = parentOf(path);
    const parent = this.nodes.get(parentPath)!;
    parent.children.delete(path.slice(path.lastIndexOf('/') + 1));
    parent.stat.cversion++;
    parent.stat.pzxid = ++this.zxid;
    parent.stat.numChildren--;
    this.notify(path, 'deleted', [...node.dataWatches, ...this.takeExistsWatches(path)]);
    // A container goes with its last child (the server does it a little later).
    if (parent.children.size === 0 && parent.stat.ephemeralOwner === CONTAINER && parentPath !== '/') this.delete(parentPath, -1);
  }

  createContainer(path: string): void {
    this.create('0', path, null, 'persistent');
    this.nodes.get(path)!.stat.ephemeralOwner = CONTAINER;
  }

  private node(path: string, operation: string): Znode {
    const node = this.nodes.get(path);
    if (!node) throw failure('NONODE', operation, path);
    return node;
  }

  private watch(watches: Set<Watcher>, path: string, watcher: Watcher): void {
    watches.add(watcher);
    for (const listener of this.watchListeners) listener(path);
  }

  private takeExistsWatches(path: string): Watcher[] {
    const watches = this.existsWatches.get(path);
    this.existsWatches.delete(path);
    return watches ? [...watches] : [];
  }

  /** Queued now, so delivered before the reply of the request that made the change (and of any later one). */
  private notify(path: string, type: WatchEventType, watchers: readonly Watcher[]): void {
    for (const watcher of watchers) queueMicrotask(() => watcher({ type, path }));
  }
}

/** `ephemeralOwner` of a container node as the server reports it. */
const CONTAINER = '8000000000000000';

/** One always-connected session over an `InMemoryZooKeeper`. */
class InMemorySession implements ZkSessionClient {
  readonly state = 'connected';
  readonly state$: Observable<SessionStateChange>;
  readonly mayHaveExpired = false;
  readonly sessionTimeoutMs = 30_000;

  constructor(
    private readonly tree: InMemoryZooKeeper,
    readonly sessionId: string,
  ) {
    this.state$ = new BehaviorSubject<SessionStateChange>({ state: 'connected', sessionId, at: performance.now() }).asObservable();
  }

  create(path: string, data?: Buffer | null, mode: CreateMode = 'persistent'): Promise<string> {
    if (mode === 'container') return this.answer(() => (this.tree.createContainer(path), path));
    return this.answer(() => this.tree.create(this.sessionId, path, data ?? null, mode));
  }

  getChildren(path: string): Promise<{ children: string[]; stat: ZkStat }> {
    return this.answer(() => this.tree.getChildren(path));
  }

  getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: ZkStat }> {
    return this.answer(() => this.tree.getData(path, watcher));
  }

  exists(path: string, watcher?: Watcher): Promise<ZkStat | null> {
    return this.answer(() => this.tree.exists(path, watcher));
  }

  setData(path: string, data: Buffer, version: number): Promise<ZkStat> {
    return this.answer(() => this.tree.setData(path, data, version));
  }

  delete(path: string, version = -1): Promise<void> {
    return this.answer(() => this.tree.delete(path, version));
  }

  getAcl(path: string): Promise<{ acl: ZkAcl[]; stat: ZkStat }> {
    return this.answer(() => ({ acl: [...OPEN_ACL_UNSAFE], stat: this.tree.exists(path, undefined) ?? fail('NONODE', 'getAcl', path) }));
  }

  setAcl(path: string): Promise<void> {
    return this.answer(() => void (this.tree.exists(path, undefined) ?? fail('NONODE', 'setAcl', path)));
  }

  async sync(): Promise<void> {}

  async waitForConnection(): Promise<void> {}

  async secure(): Promise<void> {}

  /** The request is applied now (in the order of the calls); its reply comes as a promise. */
  private answer<T>(apply: () => T): Promise<T> {
    try {
      return Promise.resolve(apply());
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function newZnode(data: Buffer, zxid: bigint, ephemeralOwner: string): Znode {
  const now = Date.now();
  return {
    data,
    stat: { czxid: zxid, mzxid: zxid, pzxid: zxid, ctime: now, mtime: now, version: 0, cversion: 0, aversion: 0, ephemeralOwner, dataLength: data.length, numChildren: 0 },
    children: new Set(),
    dataWatches: new Set(),
  };
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

function failure(code: Exclude<ZooKeeperErrorName, 'UNKNOWN'>, operation: string, path: string): ZooKeeperError {
  return new ZooKeeperError(ZOOKEEPER_ERROR_CODES[code], operation, path);
}

function fail(code: Exclude<ZooKeeperErrorName, 'UNKNOWN'>, operation: string, path: string): never {
  throw failure(code, operation, path);
}
