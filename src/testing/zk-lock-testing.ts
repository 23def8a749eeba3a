import type { InterruptedSection } from '../recipes/ready-state.js';
import type { MemoryBackend } from './memory-backend.js';
import type { MemoryLockState } from './memory-locks.js';

/** What an interrupted holder or leader left behind, as its successor's recovery handler will see it. */
export interface InterruptOptions {
  /** Its last `checkpoint()` value. Default: none. */
  readonly checkpoint?: unknown;
  /** Its identity. Default `interrupted-holder`. */
  readonly holder?: string;
}

/**
 * Drives the in-memory locks and elections of `ZkLockTestingModule` from a test: who leads, which
 * earlier holder or leader died mid-section (so that the next one runs its recovery handler), and
 * which held lock is lost. Inject it like any provider: `moduleRef.get(ZkLockTesting)`.
 */
export class ZkLockTesting {
  constructor(
    private readonly backend: MemoryBackend,
    private readonly defaultElection: string,
  ) {}

  /**
   * Makes this process lead `election` (default: the module's default election), or stop leading
   * it. Gaining runs the recovery handler first when an earlier leader was interrupted
   * (`interruptLeader`), then `isLeader$` emits true and `@LeaderOnly` methods run; if the handler
   * throws, this rejects with `RecoveryFailedError`, leadership is not reported and the state stays
   * dirty (call again to retry). Losing makes `isLeader$` emit false, aborts running leader
   * sections' `signal` (they end with `LeadershipLostError`), and `@LeaderOnly` methods skip.
   */
  async setLeader(leading: boolean, election: string = this.defaultElection): Promise<void> {
    const target = this.backend.election(election);
    if (leading) await target.gain();
    else target.lose('ZkLockTesting.setLeader(false)');
  }

  /**
   * Stages an earlier leader of `election` that died mid-section: the next time this process gains
   * leadership (`setLeader(true)`), the `@OnLeaderRecovery` / `onRecovery` handler runs with what
   * is returned here before leadership is reported. Throws while this process leads.
   */
  interruptLeader(left: InterruptOptions & { readonly election?: string } = {}): InterruptedSection {
    return this.backend.election(left.election ?? this.defaultElection).interrupt(left.holder ?? 'interrupted-holder', left.checkpoint);
  }

  /**
   * Stages an earlier holder of lock `name` that died mid-section: the next guarded call
   * (`@WithLock(name, { recover })`, `withLock(name, fn, { recover })`) runs its recovery handler
   * with what is returned here before its own work. Throws while the lock is held (see `loseLock`).
   */
  interruptLock(name: string, left: InterruptOptions = {}): InterruptedSection {
    return this.backend.locks.interrupt(name, left.holder ?? 'interrupted-holder', left.checkpoint);
  }

  /**
   * Makes the current holder of lock `name` lose it, as a session that may have expired does: its
   * `signal` aborts with `LockLostError(reason)`, the next waiter is granted the lock, and the
   * holder's `withLock` call ends with `LockLostError` (a guarded section stays dirty, so the next
   * holder recovers it, with its last checkpoint). Returns the number of leases lost (0 or 1).
   */
  loseLock(name: string, reason = 'ZkLockTesting.loseLock()'): number {
    return this.backend.locks.lose(name, reason);
  }

  /** Whether lock `name` is held, by which token, and how many acquisitions wait behind it. */
  lockState(name: string): MemoryLockState {
    return this.backend.locks.state(name);
  }
}
