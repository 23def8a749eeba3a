import { performance } from 'node:perf_hooks';
import { LockAbortedError } from '../errors/lock-aborted.error.js';
import type { LockLostError } from '../errors/lock-lost.error.js';
import { LockTimeoutError } from '../errors/lock-timeout.error.js';
import type { ZkLockEventSink } from '../observability/event-sink.js';
import type { LockEvent } from '../observability/zk-lock-event.js';
import type { LockRecipe, SectionHandle } from '../recipes/contracts.js';
import type { AcquireOptions } from '../recipes/distributed-lock.js';
import { Lease, type LeaseHost } from '../recipes/lease.js';
import { validateLockName } from '../recipes/lock-name.js';
import type { InterruptedSection, RecoveryHandler, SectionOwner } from '../recipes/ready-state.js';
import { znodePaths } from '../recipes/znode-paths.js';
import { MemoryReadyState, type TokenClock } from './memory-ready-state.js';

/** Where one lock stands, for assertions in tests. */
export interface MemoryLockState {
  /** Someone holds it. */
  readonly held: boolean;
  /** The holder's fencing token. */
  readonly token: bigint | undefined;
  /** Acquisitions queued behind the holder. */
  readonly waiting: number;
}

interface Waiter {
  grant(): void;
}

interface LockQueue {
  readonly path: string;
  holder: Lease | undefined;
  readonly waiters: Waiter[];
  ready: MemoryReadyState | undefined;
}

/**
 * `LockRecipe` in memory, with `LockClient`'s semantics within one process: one holder per name,
 * granted in request order (FIFO), `waitMs` / `signal` giving up with `LockTimeoutError` /
 * `LockAbortedError`, `waitMs: 0` and `tryAcquire` never queueing, strictly increasing fencing
 * tokens, real `Lease`s (`signal`, `isHeld`, `release()`), and guarded sections on an in-memory
 * ready state. `lose()` and `interrupt()` let a test stage what ZooKeeper failures would cause.
 */
export class MemoryLocks implements LockRecipe {
  private readonly queues = new Map<string, LockQueue>();
  private readonly held = new Set<Lease>();
  /** Why `close()` was called, once it was: a grant after that is revoked at once, as `LockClient` does. */
  private closedFor: string | undefined;
  private readonly leaseHost: LeaseHost = {
    sessionInDoubt: () => false,
    lost: (lease: Lease, error: LockLostError) => this.report({ type: 'lock.lost', name: lease.name, path: this.pathOf(lease.name), token: lease.fencingToken, reason: error.reason }),
    // The in-memory release cannot fail; should it ever, it must not vanish.
    releaseFailed: (lease: Lease, error: unknown) => queueMicrotask(() => {
      throw new Error(`release of ${lease.path} failed`, { cause: error });
    }),
  };

  constructor(
    private readonly root: string,
    private readonly clock: TokenClock,
    private readonly events: ZkLockEventSink,
    /** Bound of the ready records' size (`maxRecordBytes`), as on ZooKeeper. */
    private readonly maxRecordBytes: number,
  ) {}

  async acquire(name: string, options: AcquireOptions = {}): Promise<Lease> {
    const lease = await this.join(name, options.waitMs, options.signal);
    if (!lease) throw new LockTimeoutError(this.pathOf(name), 0);
    return lease;
  }

  async tryAcquire(name: string): Promise<Lease | undefined> {
    return this.join(name, 0, undefined);
  }

  pathOf(name: string): string {
    return znodePaths.lockDir(this.root, validateLockName(name));
  }

  heldLeases(): Lease[] {
    return [...this.held];
  }

  enterGuarded(name: string, owner: SectionOwner, recover: RecoveryHandler): Promise<SectionHandle> {
    const queue = this.queueOf(name);
    queue.ready ??= new MemoryReadyState(queue.path, this.maxRecordBytes);
    return queue.ready.enter(owner, async (interrupted, successor) => {
      try {
        await recover(interrupted, successor);
      } catch (error) {
        this.reportRecovery(name, owner.token, interrupted, { error });
        throw error;
      }
      this.reportRecovery(name, owner.token, interrupted);
    });
  }

  async close(reason = 'the lock client was closed'): Promise<void> {
    this.closedFor ??= reason;
    await Promise.all([...this.held].map((lease) => lease.revoke(reason)));
  }

  /** Tells every holder of `name` that its lease is lost (its `signal` aborts), then frees the lock. */
  lose(name: string, reason: string): number {
    const leases = [...this.held].filter((lease) => lease.name === name);
    for (const lease of leases) {
      lease.markLost(reason);
      void lease.release(); // like LeaseRegistry: a lost lease is never regained
    }
    return leases.length;
  }

  /** Leaves the lock's ready state as if a holder had died mid-section. */
  interrupt(name: string, holder: string, checkpoint: unknown): InterruptedSection {
    const queue = this.queueOf(name);
    if (queue.holder) {
      throw new Error(`lock "${name}" is held right now: interrupt() stands for an earlier holder; use loseLock() to make the current holder lose it`);
    }
    queue.ready ??= new MemoryReadyState(queue.path, this.maxRecordBytes);
    return queue.ready.interrupt(this.clock.next(), holder, checkpoint);
  }

  state(name: string): MemoryLockState {
    const queue = this.queues.get(name);
    return { held: queue?.holder !== undefined, token: queue?.holder?.fencingToken, waiting: queue?.waiters.length ?? 0 };
  }

  private async join(name: string, waitMs: number | undefined, signal: AbortSignal | undefined): Promise<Lease | undefined> {
    const queue = this.queueOf(name);
    const path = queue.path;
    const startedAt = performance.now();
    this.report({ type: 'lock.wait-started', name, path });
    if (signal?.aborted) throw this.failWait(name, startedAt, new LockAbortedError(path, signal.reason));
    if (!queue.holder && queue.waiters.length === 0) return this.grant(name, queue, startedAt, false);
    if (waitMs === 0) {
      this.report({ type: 'lock.busy', name, path });
      return undefined;
    }
    return new Promise<Lease>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const stop = (error: Error) => {
        const index = queue.waiters.indexOf(waiter);
        if (index < 0) return; // granted meanwhile
        queue.waiters.splice(index, 1);
        cleanUp();
        reject(this.failWait(name, startedAt, error));
      };
      const onAbort = () => stop(new LockAbortedError(path, signal!.reason));
      const cleanUp = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        grant: () => {
          cleanUp();
          resolve(this.grant(name, queue, startedAt, true));
        },
      };
      queue.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (waitMs !== undefined && waitMs > 0 && Number.isFinite(waitMs)) timer = setTimeout(() => stop(new LockTimeoutError(path, waitMs)), waitMs);
    });
  }

  private grant(name: string, queue: LockQueue, startedAt: number, handoff: boolean): Lease {
    const token = this.clock.next();
    const grantedAt = performance.now();
    const entry = { dir: queue.path, path: `${queue.path}/_c_memory-lock-${token.toString().padStart(10, '0')}`, sessionId: 'memory', token, waited: handoff };
    const lease = new Lease(name, entry, (released) => this.release(name, queue, released, grantedAt), this.leaseHost);
    queue.holder = lease;
    this.held.add(lease);
    this.report({ type: 'lock.acquired', name, path: queue.path, token, waitMs: grantedAt - startedAt, handoff });
    if (this.closedFor !== undefined) void lease.revoke(this.closedFor); // granted after close(): see LockClient
    return lease;
  }

  private async release(name: string, queue: LockQueue, lease: Lease, grantedAt: number): Promise<void> {
    this.held.delete(lease);
    if (queue.holder !== lease) return;
    queue.holder = undefined;
    this.report({ type: 'lock.released', name, path: queue.path, token: lease.fencingToken, holdMs: performance.now() - grantedAt });
    queue.waiters.shift()?.grant(); // exactly one waiter is woken
  }

  private failWait(name: string, startedAt: number, error: Error): Error {
    const path = this.pathOf(name);
    const waitMs = performance.now() - startedAt;
    if (error instanceof LockTimeoutError) this.report({ type: 'lock.timeout', name, path, waitMs });
    else if (error instanceof LockAbortedError) this.report({ type: 'lock.aborted', name, path, waitMs, reason: error.cause });
    return error;
  }

  private reportRecovery(name: string, token: bigint, interrupted: InterruptedSection, failure?: { error: unknown }): void {
    this.report({ type: 'lock.recovery', name, path: this.pathOf(name), token, interrupted, outcome: failure ? 'failed' : 'repaired', ...failure });
  }

  private report(event: LockEvent): void {
    if (this.events.wants('lock')) this.events.emit('lock', event);
  }

  private queueOf(name: string): LockQueue {
    const path = this.pathOf(name);
    let queue = this.queues.get(name);
    if (!queue) this.queues.set(name, (queue = { path, holder: undefined, waiters: [], ready: undefined }));
    return queue;
  }
}
