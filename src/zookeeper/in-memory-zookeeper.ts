import { BehaviorSubject, type Observable } from 'rxjs';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import type { SessionStateChange } from './session-state.js';
import { ClientWatches } from './simulated/client-watches.js';
import { CREATE_FLAGS, ZkFault, ZnodeTree, type Asker, type Notification, type SimStat, type WriteRequest } from './simulated/znode-tree.js';
import type { CreateMode, Watcher, ZkAcl, ZkStat } from './types.js';
import type { ZkSessionClient } from './zk-session-client.js';

const FLAGS: Record<CreateMode, number> = {
  persistent: 0,
  ephemeral: CREATE_FLAGS.ephemeral,
  persistent_sequential: CREATE_FLAGS.sequential,
  ephemeral_sequential: CREATE_FLAGS.ephemeral | CREATE_FLAGS.sequential,
  container: CREATE_FLAGS.container,
};

/**
 * The simulated ZooKeeper's data tree (`ZnodeTree`: stats, sequence names, ephemeral and container
 * nodes, one-shot watches) with always-connected sessions over it, answering in the order of the
 * calls, with a change's notifications delivered before the replies to anything sent after it:
 * what runs recipe code where no server may be involved (the hand-over rehearsal, see
 * `rehearseHandOver`). No network, no clock, no faults: nothing to lose.
 *
 * Why not the whole simulated ensemble that `nestjs-zk-lock/testing` runs on: the rehearsal runs
 * in every production process, and it would then run `ZkSession` and `ZooKeeperClient` (which the
 * real hand-over goes through) over a second binding, with an effect on their compiled code that
 * only the W4 benchmark could tell; and the rehearsal must know when the successor watches the
 * leader's node (`watched`).
 */
export class InMemoryZooKeeper {
  private readonly tree = new ZnodeTree();
  private readonly sessions = new Map<bigint, InMemorySession>();
  private readonly watchListeners = new Set<(path: string) => void>();
  private zxid = 0n;

  /** A new session over this tree; its nodes' `ephemeralOwner` is its id. */
  connect(): ZkSessionClient {
    const id = 0x7e57_0000n + BigInt(this.sessions.size + 1);
    const session = new InMemorySession(this, id);
    this.sessions.set(id, session);
    return session;
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

  /** Applies a write at once; its notifications are queued before the caller sees the reply. */
  write(request: WriteRequest, asker: Asker): { path: string; stat?: SimStat } {
    const txn = this.tree.prepare(request, asker, ++this.zxid, Date.now());
    if (txn instanceof ZkFault) throw new ZooKeeperError(txn.rc, request.op, request.path);
    this.deliver(this.tree.apply(txn));
    const path = txn.type === 'create' ? txn.path : request.path;
    const read = request.op === 'setData' ? this.tree.read(path, asker, 0) : undefined;
    // A container goes with its last child (the server's sweep does it a little later).
    if (request.op === 'delete') for (const container of this.tree.emptyContainers()) this.write({ op: 'delete', path: container, version: -1 }, asker);
    return { path, stat: read && !(read instanceof ZkFault) ? read.stat : undefined };
  }

  /**
   * Answers a read. A watch stays behind on success (`getData`: a data watch, `getChildren`: a child
   * watch), and for `exists` on a missing node too (it fires on creation).
   */
  read(operation: 'getChildren' | 'getData' | 'exists' | 'getAcl', path: string, asker: Asker, watch = false): { data: Buffer; stat: SimStat; children: string[]; acl: readonly ZkAcl[] } {
    const found = this.tree.read(path, asker, operation === 'exists' || operation === 'getAcl' ? 0 : undefined);
    if (watch && (!(found instanceof ZkFault) || operation === 'exists')) {
      this.tree.watch(operation === 'getChildren' ? 'child' : 'data', path, asker.session);
      for (const listener of this.watchListeners) listener(path);
    }
    if (found instanceof ZkFault) throw new ZooKeeperError(found.rc, operation, path);
    return found;
  }

  private deliver(notifications: readonly Notification[]): void {
    for (const n of notifications) this.sessions.get(n.session)?.notify(n.type, n.path);
  }
}

/** One always-connected session over an `InMemoryZooKeeper`. */
class InMemorySession implements ZkSessionClient {
  readonly state = 'connected';
  readonly state$: Observable<SessionStateChange>;
  readonly mayHaveExpired = false;
  readonly sessionTimeoutMs = 30_000;
  readonly sessionId: string;
  private readonly asker: Asker;
  private readonly watches = new ClientWatches<Watcher>();

  constructor(
    private readonly zk: InMemoryZooKeeper,
    id: bigint,
  ) {
    this.sessionId = id.toString(16);
    this.asker = { session: id, ids: [] };
    this.state$ = new BehaviorSubject<SessionStateChange>({ state: 'connected', sessionId: this.sessionId, at: performance.now() }).asObservable();
  }

  /** Queued now, so delivered before the reply of the request that made the change (and of any later one). */
  notify(type: Notification['type'], path: string): void {
    for (const watcher of this.watches.take(type, path)) queueMicrotask(() => watcher({ type, path }));
  }

  create(path: string, data?: Buffer | null, mode: CreateMode = 'persistent'): Promise<string> {
    return this.answer(() => this.zk.write({ op: 'create', path, data: data ?? Buffer.alloc(0), flags: FLAGS[mode] }, this.asker).path);
  }

  getChildren(path: string): Promise<{ children: string[]; stat: ZkStat }> {
    return this.answer(() => {
      const { children, stat } = this.zk.read('getChildren', path, this.asker);
      return { children, stat: toStat(stat) };
    });
  }

  getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: ZkStat }> {
    return this.answer(() => {
      const { data, stat } = this.zk.read('getData', path, this.asker, watcher !== undefined);
      if (watcher) this.watches.keep('data', path, watcher);
      return { data, stat: toStat(stat) };
    });
  }

  exists(path: string, watcher?: Watcher): Promise<ZkStat | null> {
    return this.answer(() => {
      try {
        const { stat } = this.zk.read('exists', path, this.asker, watcher !== undefined);
        if (watcher) this.watches.keep('data', path, watcher);
        return toStat(stat);
      } catch (error) {
        if (!ZooKeeperError.is(error, 'NONODE')) throw error;
        if (watcher) this.watches.keep('exist', path, watcher);
        return null;
      }
    });
  }

  setData(path: string, data: Buffer, version: number): Promise<ZkStat> {
    return this.answer(() => toStat(this.zk.write({ op: 'setData', path, data, version }, this.asker).stat!));
  }

  delete(path: string, version = -1): Promise<void> {
    return this.answer(() => void this.zk.write({ op: 'delete', path, version }, this.asker));
  }

  getAcl(path: string): Promise<{ acl: ZkAcl[]; stat: ZkStat }> {
    return this.answer(() => {
      const { acl, stat } = this.zk.read('getAcl', path, this.asker);
      return { acl: [...acl], stat: toStat(stat) };
    });
  }

  setAcl(path: string, acl: readonly ZkAcl[], version = -1): Promise<void> {
    return this.answer(() => void this.zk.write({ op: 'setAcl', path, acl, version }, this.asker));
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

function toStat(stat: SimStat): ZkStat {
  return { ...stat, ephemeralOwner: stat.ephemeralOwner.toString(16) };
}
