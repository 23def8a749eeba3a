import type { ZkLockEventSink } from '../observability/event-sink.js';
import type { Election } from '../recipes/contracts.js';
import type { LeaderElectionOptions } from '../recipes/leader-election.js';
import type { ZkLockBackend } from '../services/zk-lock-backend.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import { MemoryElection } from './memory-election.js';
import { MemoryLocks } from './memory-locks.js';
import { TokenClock } from './memory-ready-state.js';

/**
 * The `ZkLockBackend` of `ZkLockTestingModule`: in-memory locks and elections behind the real
 * `LockService` / `LeaderService`. One token clock for all of them, like zxids on one ensemble.
 */
export class MemoryBackend implements ZkLockBackend {
  readonly locks: MemoryLocks;
  private readonly clock = new TokenClock();
  private readonly elections = new Map<string, MemoryElection>();

  constructor(
    private readonly options: ResolvedZkLockOptions,
    private readonly events: ZkLockEventSink,
  ) {
    this.locks = new MemoryLocks(options.root, this.clock, events, options.maxRecordBytes);
  }

  /** `LeaderService` asks for each election once; the test may have set up its leadership before. */
  createElection(options: LeaderElectionOptions): Election {
    return this.election(options.name, options.logger);
  }

  /** The election `name`, created on first use by either the service or the test. */
  election(name: string, logger?: LeaderElectionOptions['logger']): MemoryElection {
    let election = this.elections.get(name);
    if (!election) {
      election = new MemoryElection({
        root: this.options.root,
        name,
        identity: this.options.identity,
        drainTimeoutMs: this.options.drainTimeoutMs,
        maxRecordBytes: this.options.maxRecordBytes,
        clock: this.clock,
        events: this.events,
        logger,
      });
      this.elections.set(name, election);
    }
    return election;
  }
}
