import { BehaviorSubject, type Observable } from 'rxjs';
import { ElectionClosedError } from '../../errors/election-closed.error.js';
import { SessionClosedError } from '../../errors/session-closed.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { diagnosticsSink, type EventSink } from '../../observability/event-sink.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import { backoffDelay, pause } from '../backoff.js';
import { validateLockName } from '../lock-name.js';
import { FairQueue, type QueueEntry } from '../queue/fair-queue.js';
import { sortQueue } from '../queue/queue-node.js';
import { requestRelease, type ReleaseRequest } from '../queue/release-request.js';
import { ReadyState, type RecoveryHandler } from '../ready/ready-state.js';
import { znodePaths } from '../znode-paths.js';
import { LeaderTracker } from './leader-tracker.js';
import { LeaderWork, type LeaderSection, type LeaderTenure, type ReadyRead } from './leader-work.js';
import type { LeadershipEventsByChannel } from './leadership-events.js';
import { LeadershipTerm, type LeaderSuspendPolicy, type TermEnd } from './leadership-term.js';
import { ReadyStandby } from './ready-standby.js';
import { Succession, type OwnNodeWatch, type SuccessionReads } from './succession.js';

export interface LeaderElectionLogger {
  debug?(message: string): void;
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface LeaderElectionOptions {
  /** Root znode, e.g. `/zk-lock`; the election lives in `<root>/elections/<name>`. */
  readonly root: string;
  /** Election name (one znode name, validated like lock names). */
  readonly name: string;
  /** Stored in our queue node: what `leader$` and `participants()` show of us. */
  readonly identity: string;
  /** Default `immediate`. */
  readonly suspendPolicy?: LeaderSuspendPolicy;
  /** How long `resign()` / `close()` wait for running leader sections before leaving. Default 10000. */
  readonly drainTimeoutMs?: number;
  readonly logger?: LeaderElectionLogger;
  /** Where leadership events go. Default: the `node:diagnostics_channel` channels only. */
  readonly events?: EventSink<LeadershipEventsByChannel>;
}

const SILENT: LeaderElectionLogger = { log() {}, warn() {}, error() {} };

/** Why a leader that was asked to step down stopped reporting leadership (`leadership.lost`'s reason). */
const STEP_DOWN_REASON = 'asked to step down';

/**
 * One leader election, as `LeaderService.election(name)` returns it (`LeaderElection` on
 * ZooKeeper; `nestjs-zk-lock/testing` wraps it so that it joins behind stand-in leaders). See
 * `LeaderElection` for the semantics of each member.
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
  /** Asks the current leader, in this process or another, to step down; resolves with whom it asked. */
  requestStepDown(): Promise<ReleaseRequest>;
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

// Why this file is long: its class doc is the election's glossary (succession, term, tenure,
// take-over, leader work, section) and its safety argument, and the `Election` contract the testing kit
// also implements sits with it; the class itself is the participation loop and the hand-over.

/**
 * Leader election on the fair queue (marker `n`, in `<root>/elections/<name>`): the participant
 * whose node is first in line leads; each other participant watches only its predecessor, so a
 * hand-over wakes exactly one process.
 *
 * The words of this folder, from the longest span to the shortest:
 * - **succession** (`Succession`): how a participant gets to the head: the queue's driver, which
 *   grants the participant right behind the leader on the leader's departure, with no request.
 * - **term** (`LeadershipTerm`): one queue node's time at the head, from the grant until the node
 *   is gone or given up. It reports leadership only while nothing casts doubt on it.
 * - **tenure** (`LeaderTenure`: a token and a signal): one unbroken stretch of *reported*
 *   leadership within a term; a doubt (a suspended connection) ends it, and a term whose doubt
 *   clears starts a new one under the same token.
 * - **take-over**: what a term does before its first tenure: repair and fence the ready znode.
 * - **leader work** (`LeaderWork`): the leader's side of the ready znode: the take-over, then the
 *   **sections** (`LeaderSection`), each one guarded run of work under a tenure, scheduled by
 *   `LeaderSections`.
 *
 * Safety: `isLeader$` reports false before anyone else can report true. It turns false as soon as
 * the connection is suspended (`suspendPolicy: 'immediate'`, the default) or, with `'deadline'`,
 * once the session-loss clock says the server may have expired us (`lost`); both happen before
 * the server can expire the session and hand our place on. After `reconnected` it reports true
 * again only once a read shows our node still exists and belongs to our session; after an
 * expiry it joins again at the back of the queue. The synchronous `isLeader` also refuses
 * leadership at once after this process was stalled (SIGSTOP, long GC) past the point of doubt.
 *
 * Recovery: before a new leader reports true it takes over the election's ready znode: if the
 * previous leader died mid-section, the recovery handler (`onRecovery`) runs first, exactly once
 * (a versioned write marks it done). If the handler throws, leadership is not reported and the
 * recovery is retried in place with back-off (100 ms doubling to 5 s): the queue order is kept,
 * and no other participant could do better with a state nobody can repair. `resign()` stops it.
 * Leader work the handler calls (`runAsLeader`, `@LeaderOnly`) runs as part of the take-over.
 *
 * Step-down (`requestStepDown`, from any process): a mark on the leader's node, which its term
 * watches anyway. The leader then resigns as `resign()` does (sections get the drain timeout) and
 * joins again at the back, so the next participant leads; alone in the queue, it leads again.
 *
 * Leader work: sections run one at a time per leadership; leader work started inside a section
 * of this election runs inside it; a section stuck past the drain timeout does not hold up a later
 * leadership's sections (see `LeaderSections`).
 */
export class LeaderElection implements Election {
  readonly name: string;
  /** The election's directory znode. */
  readonly path: string;
  private readonly queue: FairQueue;
  private readonly work: LeaderWork;
  private readonly tracker: LeaderTracker;
  private readonly leading = new BehaviorSubject<boolean>(false);
  private readonly data: Buffer;
  private readonly logger: LeaderElectionLogger;
  private readonly events: EventSink<LeadershipEventsByChannel>;
  private participation: { controller: AbortController; done: Promise<void> } | undefined;
  /** The ready record kept fresh while we stand right behind the leader (see `Succession`). */
  private readonly readyStandby: ReadyStandby;
  /** While holding the head of the queue: gives it up, for `reason` (see `hold`). */
  private handOver: ((reason?: string) => void) | undefined;
  private term: LeadershipTerm | undefined;
  private tenure: LeaderTenure | undefined;
  private closed = false;
  /** What a successor reads along with its looks at the queue, and keeps fresh while it stands by (see `Succession`). */
  private readonly successionReads: SuccessionReads<ReadyRead>;

  constructor(
    private readonly session: ZkSessionClient,
    private readonly options: LeaderElectionOptions,
  ) {
    this.name = validateLockName(options.name);
    this.path = znodePaths.electionDir(options.root, options.name);
    this.logger = options.logger ?? SILENT;
    this.events = options.events ?? diagnosticsSink;
    this.data = Buffer.from(options.identity);
    // A failed background delete of our node goes to the election's logger when one was given.
    this.queue = new FairQueue(session, ['n'], options.logger);
    const ready = new ReadyState(session, this.path);
    this.work = new LeaderWork(ready, this.path, options.identity, this.logger, this.events);
    this.readyStandby = new ReadyStandby(ready, session);
    this.successionReads = { prefetch: () => this.work.prefetch(), standby: () => this.readyStandby.standby() };
    this.tracker = new LeaderTracker(session, this.path, this.logger);
  }

  /** Whether this process leads: replays the current value, emits only on change, completes on `close()`. */
  get isLeader$(): Observable<boolean> {
    return this.leading.asObservable();
  }

  /** Leads right now. Unlike the last `isLeader$` value, also false at once after a stall (see class doc). */
  get isLeader(): boolean {
    return this.term?.isLeading ?? false;
  }

  /** Identity of the current leader (the head of the queue), or null; see `LeaderTracker` for its cost. */
  get leader$(): Observable<string | null> {
    return this.tracker.leader$;
  }

  /** Fencing token of the current leadership (strictly increases over leaders), while leading. */
  get token(): bigint | undefined {
    return this.isLeader ? this.tenure?.token : undefined;
  }

  get isParticipating(): boolean {
    return this.participation !== undefined;
  }

  /** Identities of all participants in queue order (the leader first). 1 + n requests. */
  async participants(): Promise<string[]> {
    let children: string[];
    try {
      ({ children } = await this.session.getChildren(this.path));
    } catch (error) {
      if (ZooKeeperError.is(error, 'NONODE')) return [];
      throw error;
    }
    const identities = await Promise.all(
      sortQueue(children, 'n').map((node) =>
        this.session.getData(`${this.path}/${node.name}`).then(
          ({ data }) => data.toString('utf8'),
          (error: unknown) => {
            if (ZooKeeperError.is(error, 'NONODE')) return undefined; // left meanwhile
            throw error;
          },
        ),
      ),
    );
    return identities.filter((identity): identity is string => identity !== undefined);
  }

  /** Starts participating (at the back of the queue); no-op while participating. Results come through `isLeader$`. */
  join(): void {
    if (this.closed) throw new ElectionClosedError(this.name);
    if (this.participation) return;
    const controller = new AbortController();
    this.participation = { controller, done: this.participate(controller.signal) };
  }

  /**
   * Stops participating: reports false at once (no new leader sections start), lets running
   * ones finish (at most `drainTimeoutMs`, then their signal aborts), then deletes our node so the
   * next participant leads at once. A section that finished in time completes normally: the next
   * leader runs no recovery for it. `join()` again to queue up at the back.
   *
   * Called from leader work of this election (inside a section, or the take-over's recovery), it
   * resolves once leadership is reported false, without waiting for the hand-over: that waits for
   * the calling section, which waits for us. The node is deleted as soon as that section (and any
   * other still running) has finished, so it completes normally and the next leader recovers nothing.
   */
  async resign(): Promise<void> {
    const participation = this.participation;
    if (!participation) return;
    this.participation = undefined;
    // Hand over first (a term we hold), directly: the next leader waits for its delete. The abort
    // then stops whatever else runs (the queue's wait, a back-off).
    this.handOver?.();
    participation.controller.abort(new Error('resigned'));
    if (this.work.inSection) {
      // The drain before the delete waits for our caller: waiting for the delete here would wait
      // for ourselves until the drain timeout, with no leader anywhere meanwhile.
      participation.done.catch((error: unknown) => this.logger.error(`Election ${this.path}: resigning failed: ${String(error)}`));
      return;
    }
    await participation.done;
  }

  /**
   * Asks the current leader of this election (this process or another) to step down: marks its
   * queue node (see `release-request.ts`). A `LeaderElection` leading it resigns and joins again
   * at the back; nothing is deleted on its behalf. Resolves with whom it asked (node, identity,
   * session) or `{ requested: false }` when nobody takes part. 3 requests.
   */
  requestStepDown(): Promise<ReleaseRequest> {
    return requestRelease(this.session, this.path, 'n');
  }

  /**
   * Sets the recovery handler, which runs when a new leader of this process finds that the previous
   * leader died (or a section threw) mid-work, before leadership is reported. One per election:
   * register it before joining. Returns a function that removes it.
   */
  onRecovery(handler: RecoveryHandler): () => void {
    if (typeof handler !== 'function') throw new TypeError('onRecovery expects a function');
    return this.work.setRecoveryHandler(handler);
  }

  get hasRecoveryHandler(): boolean {
    return this.work.hasRecoveryHandler;
  }

  /** The current async call chain runs inside a leader section (or the take-over's recovery) of this election. */
  get inSection(): boolean {
    return this.work.inSection;
  }

  /**
   * Runs `fn` as a guarded leader section (ready znode dirty while it runs, ready when it returns)
   * if this process leads, else resolves undefined without running it. Sections of one leadership
   * run one at a time. Rejects with `LeadershipLostError` when leadership ended meanwhile.
   * Called from inside a section of this election (or from its recovery handler during a
   * take-over), `fn` runs as part of that section instead (see `LeaderSections`).
   */
  runAsLeader<T>(fn: (section: LeaderSection) => T | Promise<T>): Promise<T | undefined> {
    const joined = this.work.join(fn);
    if (joined) return joined;
    const tenure = this.tenure;
    if (!tenure || !this.isLeader) return Promise.resolve(undefined);
    return this.work.run(tenure, fn);
  }

  /** Resigns and completes `isLeader$` and `leader$`. Final. From leader work of this election, it does not wait for the hand-over (see `resign`). */
  async close(): Promise<void> {
    this.closed = true;
    await this.resign();
    this.leading.complete();
    this.tracker.close();
  }

  private async participate(signal: AbortSignal): Promise<void> {
    try {
      await this.participateUntil(signal);
    } finally {
      // Out of the queue (resigned or closed): no watch of ours stays on the ready record.
      this.readyStandby.leave();
    }
  }

  private async participateUntil(signal: AbortSignal): Promise<void> {
    for (let failures = 0; !signal.aborted; ) {
      try {
        // Resolves once we are first in line; an abort gives up our place and rejects.
        // The ready znode's record goes out behind each look at the queue: the look that makes us
        // leader brings what the take-over must check in the same round trip. Right behind the
        // leader we stand by (succession): the record is kept fresh under a watch, and the leader's
        // departure makes us leader with no round trip at all.
        const succession = new Succession(this.session, this.successionReads);
        const entry = await this.queue.join(this.path, { data: this.data, signal, driver: succession });
        const end = await this.hold(entry!, succession.ownNodeWatch(), signal);
        // Given up for a reason of our own (e.g. a newer token in the ready state): not in a tight loop.
        failures = end.nodeMayExist && !signal.aborted ? failures + 1 : 0;
        if (failures > 0) await pause(backoffDelay(failures, 100, 10_000), signal);
      } catch (error) {
        if (signal.aborted || error instanceof SessionClosedError) return;
        failures++;
        const delay = backoffDelay(failures, 100, 10_000);
        this.logger.error(`Election ${this.path}: ${error instanceof Error ? error.message : String(error)}; joining again in ${delay} ms`);
        await pause(delay, signal);
      }
    }
  }

  /** Leads with `entry` for as long as it can; leaves the queue when the node may still be ours. */
  private async hold(entry: QueueEntry<ReadyRead>, ownNodeWatch: OwnNodeWatch | undefined, signal: AbortSignal): Promise<TermEnd> {
    const term = new LeadershipTerm(this.session, entry, ownNodeWatch, this.options.suspendPolicy ?? 'immediate', {
      report: (tenure, reason) => this.report(tenure, reason),
      takeOver: (token, ownership, signal) => this.work.takeOver({ token, signal }, ownership, ownership ? undefined : entry.prefetched),
      stepDownRequested: () => this.stepDown(term),
      logger: this.logger,
    });
    this.term = term;
    let leaving: Promise<void> | undefined;
    let handedOver = false;
    const handOver = (reason?: string) => {
      if (handedOver) return;
      handedOver = true;
      // False is reported first (observers must never see two leaders, also by their clocks), then,
      // when nothing runs under this leadership (no section, no take-over), the delete that hands
      // it over goes out in the same synchronous step, not after the drain's promise hops.
      const idle = this.work.idle;
      term.resign(reason);
      if (idle) leaving = this.leave(entry);
    };
    // `resign()` calls it directly, in its own synchronous step, rather than through an abort
    // listener on `signal`.
    this.handOver = handOver;
    if (signal.aborted) handOver(); // resigned between the grant and now
    try {
      term.start();
      this.tracker.joinedAtHead();
      const end = await term.ended;
      if (end.nodeMayExist) {
        // Running sections finish under our still-existing node; past the drain timeout they are
        // told to stop (signal) and end with LeadershipLostError, leaving the state dirty.
        // A recovery handler still running counts as leader work: the successor must not start its
        // own repair alongside it.
        if (!leaving && !(await this.work.drain(this.options.drainTimeoutMs ?? 10_000))) {
          this.logger.warn(`Leader sections of ${this.path} still running after the drain timeout; handing over anyway`);
        }
        term.abandon('leadership was handed over');
        // The delete is what hands leadership over: send it before anything slower, like logging.
        const left = leaving ?? this.leave(entry);
        this.logger.log(`Left the head of election ${this.path}: ${end.reason}`);
        await left;
      } else {
        this.logger.log(`Left the head of election ${this.path}: ${end.reason}`);
      }
      return end;
    } finally {
      if (this.handOver === handOver) this.handOver = undefined;
      if (this.term === term) this.term = undefined;
    }
  }

  /**
   * `term` was asked to step down: resign as `resign()` does, then queue again at the back once our
   * node is gone. The next participation is in place at once, so a `resign()` or `close()` meanwhile
   * calls it off, and `isParticipating` stays true.
   */
  private stepDown(term: LeadershipTerm): void {
    const participation = this.participation;
    if (this.term !== term || !participation) return;
    // Told once the current step is done (after the delete that the hand-over may send in it), and
    // before the `leadership.lost` that the hand-over queues.
    queueMicrotask(() => {
      this.logger.log(`Stepping down in election ${this.path} (token ${term.entry.token}): asked to; joining again at the back`);
      if (!this.events.wants('leadership')) return;
      this.events.emit('leadership', { type: 'leadership.step-down', election: this.name, path: this.path, identity: this.options.identity, token: term.entry.token });
    });
    this.handOver?.(STEP_DOWN_REASON);
    participation.controller.abort(new Error(STEP_DOWN_REASON));
    const controller = new AbortController();
    this.participation = { controller, done: participation.done.then(() => this.participate(controller.signal)) };
  }

  private report(tenure: LeaderTenure | undefined, reason = 'leadership ended'): void {
    const previous = this.tenure;
    this.tenure = tenure;
    const leading = tenure !== undefined;
    if (this.leading.value === leading || this.leading.closed) return;
    // Subscribers first: they act on it, and a hand-over waits for it on both sides. The log line
    // (a synchronous write) and the event come once the current step is done: after the delete
    // that a resignation sends in that same step.
    this.leading.next(leading);
    queueMicrotask(() => this.announce(tenure, previous, reason));
  }

  private announce(tenure: LeaderTenure | undefined, previous: LeaderTenure | undefined, reason: string): void {
    this.logger.log(`${tenure ? 'Leading' : 'No longer leading'} election ${this.path}${tenure ? ` (token ${tenure.token})` : ''}`);
    if (!this.events.wants('leadership')) return;
    const { name: election, path } = this;
    const identity = this.options.identity;
    this.events.emit(
      'leadership',
      tenure
        ? { type: 'leadership.gained', election, path, identity, token: tenure.token }
        : { type: 'leadership.lost', election, path, identity, token: previous?.token, reason },
    );
  }

  /**
   * Deletes our node. Connected: one round trip, worth waiting for. If the connection is down (or
   * drops meanwhile) it finishes in the background, or the node dies with the session: resigning
   * must not hang on a dead connection, and we already report false.
   */
  private async leave(entry: QueueEntry): Promise<void> {
    const left = this.queue.leave(entry.path, entry.sessionId);
    left.catch((error: unknown) => this.logger.warn(`Could not delete ${entry.path}: ${String(error)}`));
    let subscription: { unsubscribe(): void } | undefined;
    const dropped = new Promise<void>((resolve) => {
      subscription = this.session.state$.subscribe((change) => {
        if (!isConnectedState(change.state)) resolve();
      });
    });
    try {
      await Promise.race([left.catch(() => undefined), dropped]);
    } finally {
      subscription?.unsubscribe();
    }
  }
}
