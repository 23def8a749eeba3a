import type { EventSink } from '../../observability/event-sink.js';
import type { ReleaseRequest } from '../queue/release-request.js';
import type { SectionHandle } from '../ready/guarded-section.js';
import type { RecoveryHandler, SectionOwner } from '../ready/ready-state.js';
import type { PermitRequest } from '../semaphore/permit-pool.js';
import type { AcquireOptions } from './acquire-options.js';
import type { Lease } from './lease.js';
import type { LockEventsByChannel } from './lock-events.js';

export interface LockClientOptions {
  /** Root znode, e.g. `/zk-lock`; locks live in `<root>/locks/<name>`. */
  readonly root: string;
  /** Stored in our queue node so that operators can see who holds or waits (inspector, logs). */
  readonly identity?: string;
  /** Where lock events go. Default: the `node:diagnostics_channel` channels only. */
  readonly events?: EventSink<LockEventsByChannel>;
  /** Where failures that no caller awaits are logged (the background delete of a node nobody waits for). Default: `console`. */
  readonly logger?: LockClientLogger;
}

export interface LockClientLogger {
  error(message: string): void;
  warn(message: string): void;
}

/** The kinds of locks a `LockClient` hands out, each in its own directory (see `LockClient.pathOf`). */
export type LockKind = 'lock' | 'read' | 'write' | 'semaphore';

/**
 * Fair locks by name, as `LockService` uses them: `LockClient` on ZooKeeper; `nestjs-zk-lock/testing`
 * runs the same recipe on a simulated server.
 */
export interface LockRecipe {
  acquire(name: string, options?: AcquireOptions): Promise<Lease>;
  tryAcquire(name: string): Promise<Lease | undefined>;
  /** A read lease: shared with other readers, excluded by writers (`waitMs: 0` tries once, resolving undefined). */
  acquireRead(name: string, options?: AcquireOptions): Promise<Lease | undefined>;
  /** A write lease: excludes readers and writers of the read/write lock `name`. */
  acquireWrite(name: string, options?: AcquireOptions): Promise<Lease | undefined>;
  /** `request.take` of the `request.permits` permits of semaphore `name`, all or nothing. */
  acquirePermits(name: string, request: PermitRequest, options?: AcquireOptions): Promise<Lease | undefined>;
  /** The directory znode of lock `name` of `kind` (default a lock's); validates the name (`InvalidLockNameError`). */
  pathOf(name: string, kind?: LockKind): string;
  heldLeases(): Lease[];
  /** Asks the holder of lock `name`, in whichever process, to let go (its `lease.releaseRequested` aborts); see `requestRelease`. */
  requestRelease(name: string): Promise<ReleaseRequest>;
  /**
   * Enters the guarded section of lock `name` for the holder `owner`, running `recover` first when
   * the previous holder died or threw mid-section (`RecoveryFailedError` if it throws).
   */
  enterGuarded(name: string, owner: SectionOwner, recover: RecoveryHandler): Promise<SectionHandle>;
  /**
   * Completes the guarded `section` of `lease` and releases the lease in one transaction (one
   * request, one round trip) where the session's driver has multi: resolves once both are done,
   * rejects with why the section did not complete (the lease is released all the same), else as
   * `lease.release()`. Undefined, having done nothing, where the driver has no multi (or the section
   * has nothing to complete that way): the caller completes the section, then releases.
   */
  completeAndRelease(lease: Lease, section: SectionHandle): Promise<void> | undefined;
  /**
   * Revokes every lease still held and any granted from now on: each `signal` aborts with
   * `LockLostError(reason)` before its node is deleted.
   */
  close(reason?: string): Promise<void>;
}
