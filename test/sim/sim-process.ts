/**
 * One simulated process: the production stack from the session up (`ZkSession` over the
 * simulated binding, `LockClient` and `LeaderElection` behind the real `LockService` and
 * `LeaderService`, as `ZkLockModule` wires them), and a workload that exercises it the way an
 * application does: guarded and plain locked calls with random hold times, checkpoints, time-outs,
 * aborts, try-once, re-entrant calls (awaited and forked), failing calls and recovery handlers,
 * lock sets, read and write calls on a read/write lock, semaphore calls taking one or two permits,
 * leader sections of the default election, and requests to let go (`requestRelease` of a plain
 * lock, `requestStepDown` of the election), which some locked calls heed by ending early and others
 * never look for; and the dashboard's persistent recursive watch on the root (`RootWatch`), checked
 * with markers the process creates below it. Everything it sees goes to the `Invariants`.
 */
import { RootWatch } from '../../src/dashboard/root-watch.js';
import { LockBusyError } from '../../src/errors/lock-busy.error.js';
import { ReleaseRequestedError } from '../../src/errors/release-requested.error.js';
import { ZkLockError } from '../../src/errors/zk-lock.error.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import type { ZkLockEventSink } from '../../src/observability/zk-lock-event.js';
import type { LeaderSection } from '../../src/recipes/election/leader-work.js';
import type { ReleaseRequest } from '../../src/recipes/queue/release-request.js';
import type { InterruptedSection, RecoverySuccessor } from '../../src/recipes/ready/ready-state.js';
import type { HeldLock } from '../../src/services/held-lock.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { LockService, type WithLockOptions } from '../../src/services/lock.service.js';
import type { WithLocksOptions } from '../../src/services/lock-set.js';
import { zooKeeperBackend } from '../../src/services/zk-lock-backend.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
import type { ZkDriver } from '../../src/zookeeper/open-session-handle.js';
import type { SimRandom } from '../../src/zookeeper/simulated/sim-random.js';
import type { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import type { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import type { Invariants, RevocationRequest, WatchedLease } from './invariants.js';
import type { PartitionInvariants } from './partition-invariants.js';
import { PartitionWorkload } from './partition-workload.js';

/** The lock whose calls are all guarded (with `recover`), and the one whose calls never are. */
export const GUARDED_LOCK = 'orders';
export const PLAIN_LOCK = 'reports';
/** Taken with `PLAIN_LOCK` as a set (`withLocks`), listed in either order: a deadlock would hang both. */
export const SET_LOCK = 'archive';
/** The read/write lock (mostly read calls, some write calls), and the semaphore with its permits (calls take one or two). */
export const RW_LOCK = 'catalog';
export const SEMAPHORE = 'exports';
export const SEMAPHORE_PERMITS = 2;
export const ELECTION = 'main';
/** The locks whose holders are asked to let go (`requestRelease` takes plain locks only, guarded or not). */
export const REVOCABLE_LOCKS = [GUARDED_LOCK, PLAIN_LOCK, SET_LOCK] as const;
export const SIM_ROOT = '/sim';

export interface ProcessConfig {
  /** `typescript`: `ProtocolHandle` over the ensemble's simulated sockets; `native`: `ZooKeeperHandle` over the simulated C client. */
  readonly driver: ZkDriver;
  readonly sessionTimeoutMs: number;
  /** Largest record the process sends; above the ensemble's jute.maxbuffer in "oversize" schedules. */
  readonly maxRecordBytes?: number;
  /** Chance that a checkpoint is larger than jute.maxbuffer (only in "oversize" schedules). */
  readonly oversizeChance: number;
  /** Told when the process's session is reported expired (`SessionKeeping`). */
  readonly onExpired?: (actor: string, sessionId: string) => void;
  /** The partition set's count, and its invariants, when the schedule runs the partition workload. */
  readonly partitions?: { readonly count: number; readonly invariants: PartitionInvariants };
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** A failure the workload makes on purpose (a call or recovery handler that throws). */
class WorkloadError extends Error {
  override readonly name = 'WorkloadError';
}

export class SimProcess {
  private session: ZkSession | undefined;
  private locks: LockService | undefined;
  private leader: LeaderService | undefined;
  private partitionWork: PartitionWorkload | undefined;
  private running = false;
  /** No new work from now on (the faults are over), even if this process only starts now. */
  private stopped = false;
  private closing = false;
  private shuttingDown: Promise<void> | undefined;
  /** When the session counted as lost, and when it was live again, in order. */
  private readonly sessionChanges: { at: number; lost: boolean }[] = [];
  /** Settles once start-up (connect, services, bootstrap) is over. */
  private booted: Promise<void> | undefined;
  private readonly random: SimRandom;
  /** Operations started and not settled, with their start time: the liveness check reads them. */
  readonly pending = new Map<number, { what: string; since: number }>();
  private nextOp = 0;
  /**
   * A recovery the election's handler ran (of `interrupted`, for the leadership of `successor`),
   * waiting for that leadership's take-over to be recorded.
   */
  private electionRepair: { interrupted: bigint; successor: bigint } | undefined;
  /** The token of the leadership last reported. */
  private reportedToken: bigint | undefined;
  /** How often the connection dropped (`suspended` or `lost`): a root-watch check spanning a drop proves nothing. */
  private drops = 0;
  /** The `releaseRequested` signal of each lease whose call reads it (read, and listened to, once). */
  private readonly releaseSignals = new WeakMap<WatchedLease, AbortSignal>();
  shutDown = false;
  crashed = false;

  constructor(
    readonly actor: string,
    private readonly scheduler: SimScheduler,
    private readonly ensemble: SimulatedEnsemble,
    private readonly invariants: Invariants,
    private readonly config: ProcessConfig,
  ) {
    this.random = scheduler.random.fork();
  }

  /** Builds the stack and starts the workload (as this process's step). */
  start(): void {
    this.scheduler.schedule(0, () => {
      this.booted = this.boot().catch((error: unknown) => this.expectLibraryError(error, 'start-up'));
    }, 'boot', this.actor);
  }

  /** Stops starting work; what runs goes on. */
  stopWork(): void {
    this.running = false;
    this.stopped = true;
  }

  /** Graceful shutdown, as Nest's does: services first (draining, resigning), then the session. */
  shutdown(): Promise<void> {
    this.running = false;
    this.stopped = this.closing = true;
    return (this.shuttingDown ??= this.track('shutdown', async () => {
      // As Nest's shutdown hooks run only once the application has started.
      await this.booted;
      await Promise.all([this.locks?.beforeApplicationShutdown(), this.leader?.beforeApplicationShutdown(), this.partitionWork?.close()]);
      this.session?.close();
      this.shutDown = true;
    }));
  }

  /** Began shutting down (a fault, or the end of the run). */
  get isClosing(): boolean {
    return this.closing;
  }

  crash(): void {
    this.crashed = true;
    this.running = false;
    this.pending.clear();
    this.ensemble.crash(this.actor);
    this.invariants.forgetProcess(this.actor);
  }

  get sessionId(): string | undefined {
    return this.session?.sessionId;
  }

  /** Takes part in the election: started, and neither shutting down nor dead. */
  get participates(): boolean {
    return this.leader !== undefined && !this.closing && !this.crashed;
  }

  /** The partitions its set owns now; undefined without the partition workload, or once closing. */
  get partitionsOwned(): readonly number[] | undefined {
    return this.closing || this.crashed ? undefined : this.partitionWork?.owned;
  }

  /** Its partition set's member node name (the assignment's name for it), once made. */
  get partitionMember(): string | undefined {
    return this.partitionWork?.memberId;
  }

  /** Reports leadership of the election. */
  get leads(): boolean {
    return this.leader?.isLeader === true;
  }

  /** Its session says the connection is down (it stopped reporting leadership, with the default policy). */
  get knowsItIsDisconnected(): boolean {
    const state = this.session?.state;
    return state === 'suspended' || state === 'lost';
  }

  private async boot(): Promise<void> {
    if (this.closing) return; // shut down before it started: nothing to start
    const options = resolveZkLockOptions({
      connect: this.ensemble.connectString,
      root: SIM_ROOT,
      identity: this.actor,
      sessionTimeoutMs: this.config.sessionTimeoutMs,
      drainTimeoutMs: 2000,
      // Timed by nothing here; and a rehearsal on real timers would escape the simulated clock.
      election: { name: ELECTION, warmUpHandOver: false },
      ...(this.config.maxRecordBytes !== undefined && { maxRecordBytes: this.config.maxRecordBytes }),
    });
    const session = new ZkSession({
      connectString: options.connect,
      sessionTimeoutMs: options.sessionTimeoutMs,
      connectTimeoutMs: 60_000,
      maxRecordBytes: options.maxRecordBytes,
      ...(this.config.driver === 'native' ? { binding: this.ensemble.binding } : { dialer: this.ensemble.dialer }),
    });
    this.session = session;
    session.state$.subscribe((change) => {
      this.note(`session ${change.state}${change.sessionId ? ` 0x${change.sessionId}` : ''}`);
      const lost = change.state === 'lost' || change.state === 'expired' || change.state === 'closed';
      if (lost || change.state === 'suspended') this.drops++;
      if (lost || change.state === 'connected' || change.state === 'reconnected') this.sessionChanges.push({ at: this.scheduler.now, lost });
      if (change.state === 'expired' && !this.crashed) this.config.onExpired?.(this.actor, change.sessionId ?? '?');
    });
    await this.track('connect', () => session.connect());
    // Leadership events: a step-down must follow a request (`Invariants.steppedDown`).
    const events: ZkLockEventSink = {
      wants: (channel) => channel === 'leadership',
      emit: (channel, event) => {
        if (channel !== 'leadership' || !('type' in event) || event.type !== 'leadership.step-down') return;
        this.note(`steps down from ${event.election} (token ${event.token}): asked to`);
        this.invariants.steppedDown(event.election, this.actor, event.token);
      },
    };
    const backend = zooKeeperBackend(session, options, events);
    this.locks = new LockService(backend, options);
    this.leader = new LeaderService(backend, options);
    const leader = this.leader;
    leader.onRecovery((interrupted, successor) => this.recoverElection(interrupted, successor));
    this.invariants.watchLeader(this.actor, () => leader.isLeader, () => !this.crashed);
    leader.isLeader$.subscribe((leading) => {
      this.note(leading ? `leads (token ${leader.token})` : 'no longer leads');
      if (!leading) return;
      this.invariants.leadershipGained(this.actor, leader.token);
      // A new leadership reports itself only after its take-over (with any repair) was recorded;
      // the same leadership coming back after a suspension records nothing.
      if (leader.token !== this.reportedToken) this.recordElectionRepair(leader.token);
      this.reportedToken = leader.token;
    });
    leader.onApplicationBootstrap();
    this.running = !this.stopped;
    void this.lockLoop();
    void this.sharedLoop();
    void this.leaderLoop();
    void this.revocationLoop();
    void this.rootWatchLoop(session);
    if (this.config.partitions) this.startPartitions(session, this.config.partitions);
  }

  /** Joins the partition set and runs work on what it owns (see `PartitionWorkload`), on draws of its own. */
  private startPartitions(session: ZkSession, partitions: NonNullable<ProcessConfig['partitions']>): void {
    this.partitionWork = new PartitionWorkload(
      {
        actor: this.actor,
        root: SIM_ROOT,
        random: this.random.fork(),
        invariants: this.invariants,
        partitions: partitions.invariants,
        running: () => this.running,
        alive: () => !this.crashed && !this.shutDown,
        sleep: (ms) => this.sleep(ms),
        track: (what, fn) => this.track(what, fn),
        note: (text) => this.note(text),
        expectLibraryError: (error, what) => this.expectLibraryError(error, what),
      },
      session,
      partitions.count,
    );
    this.partitionWork.start();
  }

  private async lockLoop(): Promise<void> {
    while (this.running) {
      await this.sleep(this.random.between(0, 300));
      if (!this.running) return;
      await (this.random.chance(0.15) ? this.lockSetCall() : this.lockCall()).catch(() => undefined);
    }
  }

  /** Calls of the read/write lock and the semaphore: a flow of their own, so that the lock calls keep their rate. */
  private async sharedLoop(): Promise<void> {
    while (this.running) {
      await this.sleep(this.random.between(0, 600));
      if (!this.running) return;
      await (this.random.chance(0.6) ? this.readWriteCall() : this.semaphoreCall()).catch(() => undefined);
    }
  }

  /** Now and then, asks the holder of a plain lock to let go (three requests in four), or the leader to step down. */
  private async revocationLoop(): Promise<void> {
    while (this.running) {
      await this.sleep(this.random.between(500, 8000));
      if (!this.running) return;
      await (this.random.chance(0.75) ? this.releaseRequestCall() : this.stepDownRequestCall()).catch(() => undefined);
    }
  }

  /**
   * The dashboard's root watch (one persistent recursive watch, `RootWatch`), set on the session
   * and, once it stands, checked now and then with a marker: a node the process creates below the
   * root (a lock directory nobody locks), which the watch must report. Not with the native driver
   * (no persistent watches: `set` answers false). Removed when the work stops, as the dashboard
   * removes it when its last viewer leaves.
   */
  private async rootWatchLoop(session: ZkSession): Promise<void> {
    const random = this.random.fork(); // its own draws: the other loops keep theirs
    const reported = new Set<string>();
    const watch = new RootWatch(session, SIM_ROOT, (stale) => {
      if ('name' in stale) reported.add(stale.name);
    });
    for (let marker = 0; this.running; marker++) {
      await this.sleep(random.between(100, 1500));
      if (!this.running) break;
      const available = await this.track('root watch', () => this.rootWatchCheck(session, watch, reported, `watched-${this.actor}-${marker}`)).catch(() => true);
      if (!available) return;
    }
    watch.remove();
  }

  /**
   * One marker: sets the watch if it does not stand on the current session, creates the marker,
   * and checks that the watch reported it. Only when nothing could excuse a missing event: the
   * create was answered on the session the watch stands on, and the connection did not drop from
   * before the create until the check (ZooKeeper sends a session's events before the reply of the
   * request that caused them, so the event is in by then; a drop could lose it). False when the
   * driver has no persistent watches.
   */
  private async rootWatchCheck(session: ZkSession, watch: RootWatch, reported: Set<string>, name: string): Promise<boolean> {
    if (!(await watch.set())) return false;
    const sessionId = session.sessionId;
    const drops = this.drops;
    const path = `${SIM_ROOT}/locks/${name}`;
    await session.create(path); // NONODE after a wipe, a lost connection: no marker this time
    if (this.drops === drops && session.sessionId === sessionId && watch.stands) {
      this.invariants.watchReported(this.actor, path, reported.has(name));
    }
    await session.delete(path, -1).catch(() => undefined);
    return true;
  }

  private async leaderLoop(): Promise<void> {
    while (this.running) {
      await this.sleep(this.random.between(100, 700));
      if (!this.running) return;
      await this.leaderCall().catch(() => undefined);
    }
  }

  /** One `withLock` call, its options and behaviour drawn at random. */
  private lockCall(): Promise<void> {
    const r = this.random;
    const guarded = r.chance(0.6);
    const name = guarded ? GUARDED_LOCK : PLAIN_LOCK;
    const options: { -readonly [K in keyof WithLockOptions]: WithLockOptions[K] } = {};
    const mode = r.float();
    if (mode < 0.15) options.onBusy = r.chance(0.5) ? 'skip' : 'throw';
    else if (mode < 0.45) options.waitMs = r.between(50, 8000);
    if (r.chance(0.1)) options.signal = AbortSignal.timeout(r.between(10, 3000));
    const failRecovery = r.chance(0.1);
    let repairing: bigint | undefined;
    if (guarded) {
      options.recover = (interrupted: InterruptedSection) => {
        this.note(`${name} recovery of token ${interrupted.token}${failRecovery ? ' (fails on purpose)' : ''}`);
        if (failRecovery) throw new WorkloadError('recovery failed on purpose');
        repairing = interrupted.token;
        // Its take-over write goes out next: from now on it may be recorded, or not.
        this.invariants.repairMaybeRecorded(name, interrupted.token);
      };
    }
    const holdMs = r.chance(0.2) ? r.between(500, 3000) : r.between(0, 400);
    const steps = r.between(1, 3);
    const fail = r.chance(0.05);
    const nested = r.chance(0.1);
    const forked = r.chance(0.08) ? r.between(0, holdMs + 300) : undefined;
    const oversize = guarded && r.chance(this.config.oversizeChance);
    // Heeds a release request (ends early, returning): listening from the grant, or polling between steps; else never reads it.
    const heeds = r.chance(0.35) ? (r.chance(0.5) ? 'listen' : 'poll') : undefined;
    const callStartedAt = this.scheduler.now;
    let grantedAt = 0;
    let lease: WatchedLease | undefined;
    let section: ReturnType<Invariants['sectionBegan']> | undefined;
    const call = { ended: false };
    let fnEndedAt: number | undefined;
    const settled = () => {
      if (fnEndedAt === undefined) return;
      const lostAt = this.sessionLossAfter(fnEndedAt);
      const now = this.scheduler.now;
      const runningMs = lostAt === undefined ? 0 : now - lostAt - this.scheduler.pausedWithin(this.actor, lostAt, now);
      this.invariants.callSettled(name, this.actor, lostAt, runningMs);
    };
    const work = async (lock: HeldLock) => {
      try {
        await body(lock);
      } finally {
        fnEndedAt = this.scheduler.now;
        if (lease) this.invariants.callEnded(name, lease, this.mayHaveLostSession(grantedAt));
      }
    };
    const body = async (lock: HeldLock) => {
      grantedAt = this.scheduler.now;
      lease = this.plainLease(lock, callStartedAt);
      this.note(`holds ${name} (token ${lock.fencingToken})${repairing !== undefined ? ` after repairing token ${repairing}` : ''}${heeds ? ` (heeds a release request: ${heeds})` : ''}`);
      this.invariants.granted(name, lease);
      if (repairing !== undefined) this.invariants.repairRecorded(name, repairing, this.actor);
      if (guarded) section = this.invariants.sectionBegan(name, lock.fencingToken, this.actor);
      if (forked !== undefined) this.forkReentry(name, lease, call, forked);
      const asked = heeds === 'listen' ? this.releaseRequested(name, lock, lease) : undefined;
      let stoppedEarly = false;
      for (let step = 0; step < steps; step++) {
        await (asked ? this.sleepUnless(holdMs / steps, [asked]) : this.sleep(holdMs / steps));
        if (heeds && this.releaseRequested(name, lock, lease).aborted) {
          // Asked to let go: stop at this safe point and return (withLock releases as usual).
          stoppedEarly = true;
          this.note(`ends its call of ${name} early (token ${lock.fencingToken}): asked to release`);
          break;
        }
        if (guarded) await lock.checkpoint(oversize && step === 0 ? { blob: 'x'.repeat(1_100_000) } : { step });
      }
      if (stoppedEarly) {
        if (section) this.invariants.sectionFinished(section);
        return;
      }
      if (nested) {
        const outer = lease;
        await this.locks!.withLock(name, async () => {
          this.invariants.reentered(name, this.actor, outer, call.ended, 'start');
          await this.sleep(r.between(0, 100));
          this.invariants.reentered(name, this.actor, outer, call.ended, 'end');
        });
      }
      if (fail) throw new WorkloadError('locked call failed on purpose');
      if (section) this.invariants.sectionFinished(section);
    };
    return this.track(`withLock ${name}`, () =>
      this.locks!.withLock(name, work, options).then(
        () => {
          call.ended = true;
          settled();
          if (lease) this.note(`released ${name} (token ${lease.token}): call succeeded`);
          if (section) this.invariants.sectionSucceeded(section);
          if (lease) this.invariants.released(name, lease);
        },
        (error: unknown) => {
          call.ended = true;
          settled();
          this.note(`withLock ${name}${lease ? ` (token ${lease.token})` : ''} failed: ${describeError(error)}`);
          if (lease) this.invariants.released(name, lease);
          this.expectLibraryError(error, `withLock ${name}`);
        },
      ),
    );
  }

  /** One `withLocks` call over the two plain locks, listed in a random order, with random options. */
  private lockSetCall(): Promise<void> {
    const r = this.random;
    const names = r.chance(0.5) ? [PLAIN_LOCK, SET_LOCK] : [SET_LOCK, PLAIN_LOCK];
    const mode = r.float();
    const options: WithLocksOptions = mode < 0.15 ? { onBusy: r.chance(0.5) ? 'skip' : 'throw' } : mode < 0.45 ? { waitMs: r.between(50, 8000) } : {};
    const holdMs = r.chance(0.2) ? r.between(500, 3000) : r.between(0, 400);
    // Some calls listen for a release request on either lock and then end early.
    const heeds = r.chance(0.35);
    const callStartedAt = this.scheduler.now;
    let grantedAt = 0;
    const leases: { readonly name: string; readonly lease: WatchedLease }[] = [];
    let fnEndedAt: number | undefined;
    const settle = () => {
      for (const { name, lease } of leases) {
        if (fnEndedAt !== undefined) {
          const lostAt = this.sessionLossAfter(fnEndedAt);
          const now = this.scheduler.now;
          this.invariants.callSettled(name, this.actor, lostAt, lostAt === undefined ? 0 : now - lostAt - this.scheduler.pausedWithin(this.actor, lostAt, now));
        }
        this.invariants.released(name, lease);
      }
    };
    const what = `withLocks ${names.join(', ')}`;
    return this.track(what, () =>
      this.locks!.withLocks(
        names,
        async (held) => {
          try {
            grantedAt = this.scheduler.now;
            for (const lock of held) {
              const lease = this.plainLease(lock, callStartedAt);
              leases.push({ name: lock.name, lease });
              this.invariants.granted(lock.name, lease);
            }
            this.note(`holds ${held.map((lock) => `${lock.name} (token ${lock.fencingToken})`).join(' and ')}${heeds ? ' (heeds a release request)' : ''}`);
            if (!heeds) {
              await this.sleep(holdMs);
              return;
            }
            const asked = held.map((lock, i) => this.releaseRequested(lock.name, lock, leases[i]!.lease));
            await this.sleepUnless(holdMs, asked);
            const which = held.filter((_, i) => asked[i]!.aborted).map((lock) => lock.name);
            if (which.length > 0) this.note(`ends its call of ${names.join(' and ')} early: asked to release ${which.join(' and ')}`);
          } finally {
            fnEndedAt = this.scheduler.now;
            for (const { name, lease } of leases) this.invariants.callEnded(name, lease, this.mayHaveLostSession(grantedAt));
          }
        },
        options,
      ).then(
        () => {
          settle();
          if (leases.length > 0) this.note(`released ${names.join(' and ')}: call succeeded`);
        },
        (error: unknown) => {
          settle();
          this.note(`${what} failed: ${describeError(error)}`);
          this.expectLibraryError(error, what);
        },
      ),
    );
  }

  /**
   * One `withReadLock` (three calls in four) or `withWriteLock` call on the read/write lock, its
   * options and behaviour drawn at random; a write call sometimes reads under its own write lock
   * (a re-entry).
   */
  private readWriteCall(): Promise<void> {
    const r = this.random;
    const mode = r.chance(0.75) ? 'read' : 'write';
    const options = this.busyOptions();
    const holdMs = r.chance(0.2) ? r.between(500, 3000) : r.between(0, 400);
    const fail = r.chance(0.05);
    const nested = mode === 'write' && r.chance(0.15);
    const name = RW_LOCK;
    const call = { ended: false };
    let lease: WatchedLease | undefined;
    let fnEndedAt: number | undefined;
    const fn = async (lock: HeldLock) => {
      try {
        lease = { process: this.actor, token: lock.fencingToken, isHeld: () => lock.lease.isHeld };
        this.note(`holds ${name} for ${mode} (token ${lock.fencingToken})`);
        this.invariants.readWriteGranted(name, mode, lease);
        await this.sleep(holdMs);
        if (nested) {
          const outer = lease;
          await this.locks!.withReadLock(name, async () => {
            this.invariants.reentered(name, this.actor, outer, call.ended, 'start');
            await this.sleep(r.between(0, 100));
            this.invariants.reentered(name, this.actor, outer, call.ended, 'end');
          });
        }
        if (fail) throw new WorkloadError(`${mode} call failed on purpose`);
      } finally {
        fnEndedAt = this.scheduler.now;
      }
    };
    const what = `with${mode === 'read' ? 'Read' : 'Write'}Lock ${name}`;
    const settle = () => {
      call.ended = true;
      this.settledAfter(name, fnEndedAt);
      if (lease) this.invariants.readWriteReleased(name, lease);
    };
    return this.track(what, () =>
      (mode === 'read' ? this.locks!.withReadLock(name, fn, options) : this.locks!.withWriteLock(name, fn, options)).then(
        () => {
          settle();
          if (lease) this.note(`released ${name} for ${mode} (token ${lease.token}): call succeeded`);
        },
        (error: unknown) => {
          settle();
          this.note(`${what}${lease ? ` (token ${lease.token})` : ''} failed: ${describeError(error)}`);
          this.expectLibraryError(error, what);
        },
      ),
    );
  }

  /** One `withSemaphore` call taking one permit (two calls in three) or two, with random options. */
  private semaphoreCall(): Promise<void> {
    const r = this.random;
    const take = r.chance(2 / 3) ? 1 : 2;
    const options = { ...this.busyOptions(), permits: SEMAPHORE_PERMITS, take };
    const holdMs = r.chance(0.2) ? r.between(500, 3000) : r.between(0, 400);
    const fail = r.chance(0.05);
    const name = SEMAPHORE;
    let lease: WatchedLease | undefined;
    let fnEndedAt: number | undefined;
    const fn = async (lock: HeldLock) => {
      try {
        lease = { process: this.actor, token: lock.fencingToken, isHeld: () => lock.lease.isHeld };
        this.note(`holds ${take} of the ${SEMAPHORE_PERMITS} permits of ${name} (token ${lock.fencingToken})`);
        this.invariants.permitsGranted(name, SEMAPHORE_PERMITS, take, lease);
        await this.sleep(holdMs);
        if (fail) throw new WorkloadError('semaphore call failed on purpose');
      } finally {
        fnEndedAt = this.scheduler.now;
      }
    };
    const what = `withSemaphore ${name} (take ${take})`;
    const settle = () => {
      this.settledAfter(name, fnEndedAt);
      if (lease) this.invariants.permitsReleased(name, lease);
    };
    return this.track(what, () =>
      this.locks!.withSemaphore(name, options, fn).then(
        () => {
          settle();
          if (lease) this.note(`released ${take} permit(s) of ${name} (token ${lease.token}): call succeeded`);
        },
        (error: unknown) => {
          settle();
          this.note(`${what}${lease ? ` (token ${lease.token})` : ''} failed: ${describeError(error)}`);
          this.expectLibraryError(error, what);
        },
      ),
    );
  }

  /** How a call waits, drawn as for `withLock`: try once (skip or throw), a `waitMs`, or as long as it takes; sometimes an abort signal. */
  private busyOptions(): { onBusy?: 'skip' | 'throw'; waitMs?: number; signal?: AbortSignal } {
    const r = this.random;
    const options: { onBusy?: 'skip' | 'throw'; waitMs?: number; signal?: AbortSignal } = {};
    const mode = r.float();
    if (mode < 0.15) options.onBusy = r.chance(0.5) ? 'skip' : 'throw';
    else if (mode < 0.45) options.waitMs = r.between(50, 8000);
    if (r.chance(0.1)) options.signal = AbortSignal.timeout(r.between(10, 3000));
    return options;
  }

  /** A locked call of `name` settled, its `fn` having ended at `fnEndedAt` (if it ran): see `Invariants.callSettled`. */
  private settledAfter(name: string, fnEndedAt: number | undefined): void {
    if (fnEndedAt === undefined) return;
    const lostAt = this.sessionLossAfter(fnEndedAt);
    const now = this.scheduler.now;
    this.invariants.callSettled(name, this.actor, lostAt, lostAt === undefined ? 0 : now - lostAt - this.scheduler.pausedWithin(this.actor, lostAt, now));
  }

  /** The lease of a plain lock's call as the checker follows it, with its node (the revocation checks read the tree). */
  private plainLease(lock: HeldLock, callStartedAt: number): WatchedLease {
    const { lease } = lock;
    return { process: this.actor, token: lock.fencingToken, isHeld: () => lease.isHeld, node: { path: lease.path, sessionId: lease.sessionId, callStartedAt } };
  }

  /**
   * Reads the lease's `releaseRequested` (the first read arms its watch) and, the first time, tells
   * the checker when it aborts: only a request may abort it (`Invariants.releaseRequestedAborted`).
   */
  private releaseRequested(name: string, lock: HeldLock, lease: WatchedLease): AbortSignal {
    const known = this.releaseSignals.get(lease);
    if (known) return known;
    const signal = lock.releaseRequested;
    this.releaseSignals.set(lease, signal);
    const aborted = () => {
      const reason: unknown = signal.reason;
      this.note(`${name} (token ${lease.token}): release requested${reason instanceof ReleaseRequestedError ? '' : `, with ${describeError(reason)}`}`);
      this.invariants.releaseRequestedAborted(name, lease, reason instanceof ReleaseRequestedError ? reason.node : undefined);
    };
    if (signal.aborted) aborted();
    else signal.addEventListener('abort', aborted, { once: true });
    return signal;
  }

  /** Its session counted as lost (or may have expired) since `since`, or it began shutting down: its leases may have ended. */
  private mayHaveLostSession(since: number): boolean {
    return this.closing || this.session?.mayHaveExpired === true || this.sessionLossAfter(since) !== undefined;
  }

  /** `requestRelease` of a plain lock, its answer told to the checker. */
  private releaseRequestCall(): Promise<void> {
    const name = this.random.pick(REVOCABLE_LOCKS);
    return this.revocationCall(name, `requestRelease ${name}`, () => this.locks!.requestRelease(name));
  }

  /** `requestStepDown` of the election (this process may be its leader, or not take part any more). */
  private stepDownRequestCall(): Promise<void> {
    return this.revocationCall(`election:${ELECTION}`, `requestStepDown ${ELECTION}`, () => this.leader!.requestStepDown());
  }

  private revocationCall(target: string, what: string, send: () => Promise<ReleaseRequest>): Promise<void> {
    let request: RevocationRequest | undefined;
    return this.track(what, () => {
      request = this.invariants.revocationSent(target, this.actor);
      return send().then(
        (asked) => {
          this.note(
            asked.requested
              ? `${what}: asked ${asked.identity} (${asked.node}, session 0x${asked.sessionId})${asked.repeated ? ', asked before' : ''}`
              : `${what}: asked nobody (${asked.reason})`,
          );
          this.invariants.revocationAnswered(request!, asked.requested ? { node: asked.node, sessionId: asked.sessionId, identity: asked.identity } : null);
        },
        (error: unknown) => {
          this.note(`${what} failed: ${describeError(error)}`);
          this.invariants.revocationFailed(request!);
          this.expectLibraryError(error, what);
        },
      );
    });
  }

  /** A `withLock` of the same name started from a timer inside the locked call (a forked flow). */
  private forkReentry(name: string, outer: WatchedLease, call: { ended: boolean }, delayMs: number): void {
    setTimeout(() => {
      void this.track(`re-entry ${name}`, () =>
        this.locks!.withLock(name, async () => {
          this.invariants.reentered(name, this.actor, outer, call.ended, 'start');
          await this.sleep(this.random.between(0, 200));
          this.invariants.reentered(name, this.actor, outer, call.ended, 'end');
        }).catch((error: unknown) => this.expectLibraryError(error, `re-entry ${name}`)),
      );
    }, delayMs);
  }

  private leaderCall(): Promise<void> {
    const r = this.random;
    const holdMs = r.chance(0.2) ? r.between(500, 3000) : r.between(0, 400);
    const steps = r.between(1, 3);
    const done = Symbol('done');
    let section: ReturnType<Invariants['sectionBegan']> | undefined;
    const leadingAs = this.leader!.token;
    const attempt = leadingAs === undefined ? undefined : this.invariants.sectionAttempted(ELECTION, leadingAs);
    return this.track('runAsLeader', () =>
      this.leader!.runAsLeader(async (leaderSection: LeaderSection) => {
        this.recordElectionRepair(leaderSection.token);
        section = this.invariants.sectionBegan(ELECTION, leaderSection.token, this.actor, attempt);
        for (let step = 0; step < steps; step++) {
          await this.sleep(holdMs / steps);
          await leaderSection.checkpoint({ step });
        }
        this.invariants.sectionFinished(section);
        return done;
      }).then(
        (result) => {
          if (result === done && section) this.invariants.sectionSucceeded(section);
          if (result === undefined && attempt) this.invariants.sectionWithdrawn(attempt); // not leading: nothing marked
        },
        (error: unknown) => this.expectLibraryError(error, 'runAsLeader'),
      ),
    );
  }

  /**
   * The election's recovery ran, and what follows it shows that its take-over was recorded: the
   * leadership it ran for was reported, or (a leader repairing its own section, interrupted while
   * its leadership was suspended) its next section began. A recovery run for another leadership
   * (one that ended before it was reported) is dropped: what it recorded, if anything, was already
   * counted as possibly recorded.
   */
  private recordElectionRepair(token: bigint | undefined): void {
    const repair = this.electionRepair;
    this.electionRepair = undefined;
    if (repair && repair.successor === token) this.invariants.repairRecorded(ELECTION, repair.interrupted, this.actor);
  }

  private recoverElection(interrupted: InterruptedSection, successor: RecoverySuccessor): void {
    const fail = this.random.chance(0.1);
    this.note(`election recovery of token ${interrupted.token}${fail ? ' (fails on purpose)' : ''}`);
    if (fail) throw new WorkloadError('leader recovery failed on purpose');
    this.electionRepair = { interrupted: interrupted.token, successor: successor.token };
    this.invariants.repairMaybeRecorded(ELECTION, interrupted.token);
  }

  /** The library fails with its own typed errors (or ZooKeeper's); anything else is a defect. */
  private expectLibraryError(error: unknown, what: string): void {
    if (error instanceof ZkLockError || error instanceof ZooKeeperError || error instanceof WorkloadError || error instanceof LockBusyError) return;
    if (error instanceof DOMException && error.name === 'TimeoutError') return; // our own AbortSignal.timeout, passed through
    this.invariants.violate('untyped-error', `${this.actor}: ${what} failed with ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }

  /** `from` if the session counted as lost then, else the first moment after it when it did. */
  private sessionLossAfter(from: number): number | undefined {
    let lostAtFrom = false;
    for (const { at, lost } of this.sessionChanges) {
      if (at < from) {
        lostAtFrom = lost;
        continue;
      }
      if (lostAtFrom) return from;
      if (lost) return at;
    }
    return lostAtFrom ? from : undefined;
  }

  private note(text: string): void {
    if (this.scheduler.tracer) this.scheduler.note(`** ${text}`, this.actor);
  }

  private async track<T>(what: string, run: () => Promise<T>): Promise<T> {
    const id = this.nextOp++;
    this.pending.set(id, { what, since: this.scheduler.now });
    try {
      return await run();
    } finally {
      this.pending.delete(id);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Sleeps `ms`, or less: until one of `signals` aborts. */
  private sleepUnless(ms: number, signals: readonly AbortSignal[]): Promise<void> {
    if (signals.some((signal) => signal.aborted)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        for (const signal of signals) signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      for (const signal of signals) signal.addEventListener('abort', done, { once: true });
    });
  }
}
