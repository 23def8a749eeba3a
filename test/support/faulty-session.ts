/**
 * A `ZkSessionClient` that delegates every request to a real session (and so a real server) and
 * lets a test act at exact points around any request: before it is sent (delay it, fail it without
 * sending, cut the network) and after its reply (hold the reply back, or report a different outcome,
 * e.g. CONNECTIONLOSS for a create the server applied). It also records every request sent, so that
 * tests can count requests per operation.
 *
 * Send order is kept: ZooKeeper executes one session's requests in order and the recipes rely on it
 * (the listing pipelined behind a create sees the created node). A request is sent synchronously,
 * as the real session would, unless a before-hook is running for it or for an earlier request; then
 * it waits its turn.
 */
import type { Observable } from 'rxjs';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import type { SessionState, SessionStateChange } from '../../src/zookeeper/session-state.js';
import type { CreateMode, Watcher, ZkAcl, ZkStat } from '../../src/zookeeper/types.js';
import type { ProtocolPower, ZkSessionClient } from '../../src/zookeeper/session-requests.js';
import type { MultiOp, MultiResult } from '../../src/zookeeper/protocol/multi.js';

export type RequestOp = 'create' | 'getChildren' | 'getData' | 'exists' | 'setData' | 'delete' | 'getAcl' | 'setAcl' | 'sync' | 'addWatch' | 'removeWatches' | 'multi';

/** One request as the wrapper saw it. `seq` counts every request of this wrapper from 1. */
export interface RequestInfo {
  readonly op: RequestOp;
  readonly path: string;
  readonly seq: number;
  /** The session the request was issued on (the current one when the caller made it). */
  readonly sessionId: string | undefined;
}

/** What a request came back with (or what an after-hook says it came back with). */
export type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** The path a create's reply named: `create`'s string, or `create2`'s `{ path, stat }` (both are op `create`). */
export function createdPath(value: unknown): string {
  return typeof value === 'string' ? value : (value as { path: string }).path;
}

/** Runs before the request is sent; throwing fails the request without sending it. */
export type BeforeHook = (request: RequestInfo) => void | Promise<void>;
/** Runs once the reply is in; returning an outcome replaces the reply the caller gets. */
export type AfterHook = (request: RequestInfo, outcome: Outcome) => void | Outcome | Promise<void | Outcome>;

interface Registered<H> {
  readonly op: RequestOp | '*';
  readonly hook: H;
  remaining: number;
}

/** CONNECTIONLOSS as the real client reports it: the outcome of `op` is unknown. */
export function connectionLoss(op: RequestOp, path: string): ZooKeeperError {
  return new ZooKeeperError(-4, op, path, 'injected by FaultySession');
}

export class FaultySession implements ZkSessionClient {
  /** Every request actually handed to the real session, in send order. */
  readonly sent: RequestInfo[] = [];
  private readonly befores: Registered<BeforeHook>[] = [];
  private readonly afters: Registered<AfterHook>[] = [];
  private seq = 0;
  /** Settles once the last request that had to wait (for a before-hook) has been sent. */
  private gate: Promise<void> | undefined;

  constructor(readonly inner: ZkSessionClient) {}

  get state(): SessionState {
    return this.inner.state;
  }
  get state$(): Observable<SessionStateChange> {
    return this.inner.state$;
  }
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }
  get mayHaveExpired(): boolean {
    return this.inner.mayHaveExpired;
  }

  get sessionTimeoutMs(): number {
    return this.inner.sessionTimeoutMs;
  }
  waitForConnection(signal?: AbortSignal): Promise<void> {
    return this.inner.waitForConnection(signal);
  }
  /** Recorded as a `removeWatches` where the driver sends one (it never replies to the caller). */
  forgetWatch(path: string, kind: 'data' | 'children', watcher: Watcher): void {
    if (this.inner.supports('removeWatches')) this.sent.push({ op: 'removeWatches', path, seq: ++this.seq, sessionId: this.inner.sessionId });
    this.inner.forgetWatch(path, kind, watcher);
  }
  secure(path: string): Promise<void> {
    return this.inner.secure(path);
  }
  supports(power: ProtocolPower): boolean {
    return this.inner.supports(power);
  }

  /** Runs `hook` before the next `times` requests of `op` (`'*'`: any); returns a remover. */
  before(op: RequestOp | '*', hook: BeforeHook, times = Infinity): () => void {
    return register(this.befores, { op, hook, remaining: times });
  }

  /** Runs `hook` after the next `times` replies of `op` (`'*'`: any); returns a remover. */
  after(op: RequestOp | '*', hook: AfterHook, times = Infinity): () => void {
    return register(this.afters, { op, hook, remaining: times });
  }

  /** How many requests (of `op`, or of any kind) were sent; `since` is a previous `sent.length`. */
  count(op?: RequestOp, since = 0): number {
    return this.sent.slice(since).filter((request) => op === undefined || request.op === op).length;
  }

  create(path: string, data?: Buffer | null, mode?: CreateMode): Promise<string> {
    return this.call('create', path, () => this.inner.create(path, data, mode));
  }
  create2(path: string, data: Buffer | null, mode: CreateMode): Promise<{ path: string; stat: ZkStat }> {
    return this.call('create', path, () => this.inner.create2(path, data, mode));
  }

  getChildren(path: string, watcher?: Watcher): Promise<{ children: string[]; stat: ZkStat }> {
    return this.call('getChildren', path, () => this.inner.getChildren(path, watcher));
  }
  getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: ZkStat }> {
    return this.call('getData', path, () => this.inner.getData(path, watcher));
  }
  exists(path: string, watcher?: Watcher): Promise<ZkStat | null> {
    return this.call('exists', path, () => this.inner.exists(path, watcher));
  }
  setData(path: string, data: Buffer, version: number): Promise<ZkStat> {
    return this.call('setData', path, () => this.inner.setData(path, data, version));
  }
  delete(path: string, version?: number): Promise<void> {
    return this.call('delete', path, () => this.inner.delete(path, version));
  }
  getAcl(path: string): Promise<{ acl: ZkAcl[]; stat: ZkStat }> {
    return this.call('getAcl', path, () => this.inner.getAcl(path));
  }
  setAcl(path: string, acl: readonly ZkAcl[], version?: number): Promise<void> {
    return this.call('setAcl', path, () => this.inner.setAcl(path, acl, version));
  }
  sync(path: string): Promise<void> {
    return this.call('sync', path, () => this.inner.sync(path));
  }
  addWatch(path: string, recursive: boolean, listener: Watcher): Promise<void> {
    return this.call('addWatch', path, () => this.inner.addWatch(path, recursive, listener));
  }
  removeWatches(path: string, type: 'data' | 'children' | 'any', watcher?: Watcher): Promise<void> {
    return this.call('removeWatches', path, () => this.inner.removeWatches(path, type, watcher));
  }
  /** Recorded under the path of its first op. */
  multi(ops: readonly MultiOp[]): Promise<MultiResult[]> {
    return this.call('multi', ops[0]?.path ?? '/', () => this.inner.multi(ops));
  }

  private async call<T>(op: RequestOp, path: string, send: () => Promise<T>): Promise<T> {
    const request: RequestInfo = { op, path, seq: ++this.seq, sessionId: this.inner.sessionId };
    const befores = take(this.befores, op);
    let reply: Promise<T>;
    if (befores.length === 0 && !this.gate) {
      this.sent.push(request);
      reply = send(); // synchronously, exactly as the caller issued it
    } else {
      reply = this.sendInTurn(request, befores, send);
    }
    let outcome: Outcome = await reply.then(
      (value): Outcome => ({ ok: true, value }),
      (error: unknown): Outcome => ({ ok: false, error }),
    );
    for (const { hook } of take(this.afters, op)) outcome = (await hook(request, outcome)) ?? outcome;
    if (outcome.ok) return outcome.value as T;
    throw outcome.error;
  }

  /** Waits for earlier held-back requests, runs the before-hooks, sends; later requests queue behind. */
  private sendInTurn<T>(request: RequestInfo, befores: Registered<BeforeHook>[], send: () => Promise<T>): Promise<T> {
    const previous = this.gate;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    this.gate = gate;
    return (async () => {
      try {
        await previous;
        for (const { hook } of befores) await hook(request);
        this.sent.push(request);
        return send(); // sent before `finally` lets the next request go
      } finally {
        if (this.gate === gate) this.gate = undefined;
        open();
      }
    })();
  }
}

function register<H>(list: Registered<H>[], entry: Registered<H>): () => void {
  list.push(entry);
  return () => {
    const index = list.indexOf(entry);
    if (index >= 0) list.splice(index, 1);
  };
}

/** The hooks that apply to this request, each used up once. */
function take<H>(list: Registered<H>[], op: RequestOp): Registered<H>[] {
  const matching = list.filter((entry) => (entry.op === '*' || entry.op === op) && entry.remaining > 0);
  for (const entry of matching) {
    entry.remaining -= 1;
    if (entry.remaining === 0) list.splice(list.indexOf(entry), 1);
  }
  return matching;
}
