import type { Observable } from 'rxjs';
import type { AcquireOptions } from './distributed-lock.js';
import type { Lease } from './lease.js';
import type { LeaderSection } from './leader-work.js';
import type { InterruptedSection, RecoveryHandler, SectionOwner } from './ready-state.js';

/*
 * What `LockService` and `LeaderService` need of the recipes: `LockClient` and `LeaderElection`
 * implement it on ZooKeeper. `nestjs-zk-lock/testing` runs the same recipes on a simulated server,
 * with its elections wrapped so that they join behind stand-in leaders (`TestingElection`).
 */

/** A guarded section in progress (see `ReadyState`): `checkpoint()` while working, `complete()` at the end. */
export interface SectionHandle {
  /** The interrupted predecessor that the recovery handler repaired on entry, if any. */
  readonly recovered: InterruptedSection | undefined;
  checkpoint(progress: unknown): Promise<void>;
  complete(): Promise<void>;
}

/** Fair locks by name, as `LockService` uses them (`LockClient`). */
export interface LockRecipe {
  acquire(name: string, options?: AcquireOptions): Promise<Lease>;
  tryAcquire(name: string): Promise<Lease | undefined>;
  /** The lock's directory znode; validates the name (`InvalidLockNameError`). */
  pathOf(name: string): string;
  heldLeases(): Lease[];
  /**
   * Enters the guarded section of lock `name` for the holder `owner`, running `recover` first when
   * the previous holder died or threw mid-section (`RecoveryFailedError` if it throws).
   */
  enterGuarded(name: string, owner: SectionOwner, recover: RecoveryHandler): Promise<SectionHandle>;
  /**
   * Revokes every lease still held and any granted from now on: each `signal` aborts with
   * `LockLostError(reason)` before its node is deleted.
   */
  close(reason?: string): Promise<void>;
}

/**
 * One leader election, as `LeaderService.election(name)` returns it (`LeaderElection` on
 * ZooKeeper). See `LeaderElection` for the semantics of each member.
 */
export interface Election {
  readonly name: string;
  /** The election's directory znode. */
  readonly path: string;
  /** Whether this process leads: replays the current value, emits only on change, completes on `close()`. */
  readonly isLeader$: Observable<boolean>;
  /** Leads right now. */
  readonly isLeader: boolean;
  /** Identity of the current leader, or null. */
  readonly leader$: Observable<string | null>;
  /** Fencing token of the current leadership, while leading. */
  readonly token: bigint | undefined;
  /** In the queue (after `join()`, until `resign()`). */
  readonly isParticipating: boolean;
  readonly hasRecoveryHandler: boolean;
  /**
   * The current async call chain runs inside a leader section of this election, or inside the
   * recovery handler of its take-over: `runAsLeader` then runs as part of that, leading or not.
   */
  readonly inSection: boolean;
  /** Identities of all participants, the leader first. */
  participants(): Promise<string[]>;
  join(): void;
  resign(): Promise<void>;
  /** Sets the one recovery handler; returns a function that removes it. */
  onRecovery(handler: RecoveryHandler): () => void;
  /**
   * Runs `fn` as a guarded leader section if this process leads, else resolves undefined; inside a
   * section (or the take-over's recovery) of this election, as part of it.
   */
  runAsLeader<T>(fn: (section: LeaderSection) => T | Promise<T>): Promise<T | undefined>;
  /** Resigns and completes the observables. Final. */
  close(): Promise<void>;
}
