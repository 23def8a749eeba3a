import type { Subscription } from 'rxjs';
import { LeadershipLostError } from '../../errors/leadership-lost.error.js';
import { SessionClosedError } from '../../errors/session-closed.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isConnectedState, type SessionStateChange } from '../../zookeeper/session-state.js';
import type { WatchEvent } from '../../zookeeper/types.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { backoffDelay, pause } from '../backoff.js';
import type { QueueEntry } from '../queue/fair-queue.js';
import type { LeaderTenure } from './leader-work.js';
import type { OwnNodeWatch } from './succession.js';

/** When a disconnected leader stops reporting leadership (see `LeaderElection`). */
export type LeaderSuspendPolicy = 'immediate' | 'deadline';

export interface TermEnd {
  readonly reason: string;
  /** The queue node may still exist and be ours: delete it before joining again. */
  readonly nodeMayExist: boolean;
}

export interface TermHooks {
  /** Called on every change of what this term reports; `reason` says why reporting stopped. */
  report(tenure: LeaderTenure | undefined, reason?: string): void;
  /**
   * Repairs and fences the ready state before the first report of leadership; may throw. Reads
   * may go out before `ownership` settles; nothing is repaired or written before it passed.
   * `ownership` undefined (the first check): the grant, just now, proved our node ours (the
   * granting listing, or a standby's watch on it that did not fire before the leader's departure),
   * so whatever was read along with the grant is as fresh as it. `signal` aborts when the term
   * ends or falls in doubt while the take-over runs: leader work its recovery calls must stop.
   */
  takeOver(token: bigint, ownership: Promise<unknown> | undefined, signal: AbortSignal): Promise<unknown>;
  logger: { log(message: string): void; warn(message: string): void; error(message: string): void };
}

type Phase = 'checking' | 'leading' | 'doubt' | 'ended';

/**
 * One queue node's time at the head of the election queue, from the listing that showed it first
 * in line until the node is gone or given up. It reports leadership only while nothing casts
 * doubt on it, with an explicit switch over the session states (`onState`):
 *
 * - Before the first report, and after every reconnection or stall, one `getData` on our node
 *   checks that it exists and that its `ephemeralOwner` is our session, and leaves a watch that
 *   ends the term if the node is deleted. Straight after the grant, the grant itself proved that,
 *   and the watch the succession kept on our node meanwhile (`Succession.ownNodeWatch`) takes the
 *   getData's place: an election's grant costs no request.
 * - Before the first report, the ready state is taken over (recovery); while that fails it is
 *   retried with back-off (100 ms doubling to 5 s), never reporting leadership meanwhile.
 * - `suspended` ends reporting at once (policy `immediate`) or not before `lost` (`deadline`);
 *   `expired`, a replaced or closed session, or our node's deletion end the term.
 */
export class LeadershipTerm {
  readonly ended: Promise<TermEnd>;
  private resolveEnded!: (end: TermEnd) => void;
  private phase: Phase = 'checking';
  /** The latest check: superseded by a newer check, a doubt or the end. */
  private attempt: CheckAttempt | undefined;
  private tenure: AbortController | undefined;
  private tookOver = false;
  /** The tenure of a resigned term whose sections may still be finishing. */
  private finishing: AbortController | undefined;
  /** The take-over in flight: a new check joins it rather than running recovery a second time. */
  private takingOver: Promise<void> | undefined;
  /** Aborts the take-over in flight's signal (see `TermHooks.takeOver`). */
  private takeOverControl: AbortController | undefined;
  private subscription: Subscription | undefined;
  /** True only while `start()` runs: a check now follows straight on the grant. */
  private granted = false;
  private ownNodeWatchTaken = false;
  /**
   * A watch on our node stands. The C client keeps it through reconnections of the session, so a
   * check after `reconnected` sets no other (one more callback per reconnection otherwise).
   */
  private nodeWatched = false;

  constructor(
    private readonly session: ZkSessionClient,
    readonly entry: QueueEntry,
    /** The watch on our node that the queue's succession left standing at the grant, if any. */
    private readonly ownNodeWatch: OwnNodeWatch | undefined,
    private readonly policy: LeaderSuspendPolicy,
    private readonly hooks: TermHooks,
  ) {
    this.ended = new Promise<TermEnd>((resolve) => (this.resolveEnded = resolve));
  }

  /**
   * Reporting leadership, and the session is not in doubt. The second half matters right after
   * this process was paused (SIGSTOP, a long GC): its timers then fire in due order, so
   * application code can run before the session's `lost` event does.
   */
  get isLeading(): boolean {
    return this.phase === 'leading' && !this.session.mayHaveExpired;
  }

  start(): void {
    // state$ replays the current state first: it starts the first check (or waits for one).
    this.granted = true;
    this.subscription = this.session.state$.subscribe((change) => this.onState(change));
    this.granted = false;
    if (this.phase === 'ended') this.subscription.unsubscribe(); // ended by the replayed state
  }

  /**
   * Ends the term voluntarily: reports false at once, but lets running leader sections finish
   * (their signal stays quiet): our node still exists, so nobody else can lead until the caller
   * deletes it. `abandon()` then, or any doubt about the session, aborts what still runs.
   */
  resign(): void {
    if (this.phase === 'ended') return;
    this.attempt?.supersede();
    this.phase = 'ended';
    const tenure = this.tenure;
    this.tenure = undefined;
    this.finishing = tenure;
    if (tenure) this.hooks.report(undefined, 'resigned');
    if (!tenure) this.subscription?.unsubscribe();
    this.resolveEnded({ reason: 'resigned', nodeMayExist: true });
  }

  /** The take-over (a recovery handler, perhaps) still running, if any: hand over only once it is done. */
  get takeOverInFlight(): Promise<void> | undefined {
    return this.takingOver?.catch(() => undefined);
  }

  get isTakingOver(): boolean {
    return this.takingOver !== undefined;
  }

  /** After a resignation: tells the sections still running that leadership is over. */
  abandon(reason: string): void {
    this.subscription?.unsubscribe();
    const tenure = this.finishing;
    this.finishing = undefined;
    tenure?.abort(new LeadershipLostError(this.entry.dir, reason));
    this.stopTakeOver(reason);
  }

  /** Ends the term from outside; the node may still be ours. */
  end(reason: string, nodeMayExist: boolean): void {
    if (this.phase === 'ended') return;
    this.attempt?.supersede();
    this.subscription?.unsubscribe();
    this.phase = 'ended';
    this.stopReporting(reason);
    this.stopTakeOver(reason);
    this.resolveEnded({ reason, nodeMayExist });
  }

  private onState(change: SessionStateChange): void {
    if (this.phase === 'ended') {
      // Resigned, sections finishing: any doubt about the session ends them as it would a leader.
      const doubtful = change.state === 'suspended' ? this.policy === 'immediate' : !isConnectedState(change.state) || change.sessionId !== this.entry.sessionId;
      if (doubtful && change.state !== 'connecting') this.abandon(`leadership ended while resigning: session ${change.state}`);
      return;
    }
    switch (change.state) {
      case 'connected':
      case 'reconnected':
        if (change.sessionId !== this.entry.sessionId) return this.end('the session was replaced', false);
        return void this.check();
      case 'suspended':
        // Disconnected, session maybe alive: nobody else can lead before it expires, but we may not
        // hear of that in time. `deadline` keeps leading until the loss clock says `lost`.
        if (this.policy === 'immediate') this.doubt('disconnected from ZooKeeper');
        return;
      case 'lost':
        return this.doubt('the session may have expired');
      case 'expired':
        return this.end('the session expired', false);
      case 'closed':
        return this.end('the session was closed', false);
      case 'connecting':
        return;
    }
  }

  private doubt(reason: string): void {
    if (this.phase === 'ended') return;
    this.attempt?.supersede();
    if (this.phase === 'leading') this.hooks.logger.warn(`Not reporting leadership of ${this.entry.dir}: ${reason}`);
    this.phase = 'doubt';
    this.stopReporting(reason);
    this.stopTakeOver(reason);
  }

  /** Tells leader work that a running recovery called that the take-over is over or in doubt. */
  private stopTakeOver(reason: string): void {
    const control = this.takeOverControl;
    this.takeOverControl = undefined;
    control?.abort(new LeadershipLostError(this.entry.dir, `the take-over was interrupted: ${reason}`));
  }

  private startTakeOver(ownership: Promise<unknown> | undefined): Promise<void> {
    const control = (this.takeOverControl = new AbortController());
    return this.hooks
      .takeOver(this.entry.token, ownership, control.signal)
      .then(() => void (this.tookOver = true))
      .finally(() => {
        this.takingOver = undefined;
        if (this.takeOverControl === control) this.takeOverControl = undefined;
      });
  }

  /** Verifies our node (and takes over the ready state once), then reports leadership; given up once superseded. */
  private async check(): Promise<void> {
    if (this.phase === 'ended') return;
    this.attempt?.supersede();
    const attempt = (this.attempt = new CheckAttempt());
    if (this.phase !== 'leading') this.phase = 'checking';
    // Straight after the grant, the grant proved our node ours (the granting listing, answered on
    // this session, or a standby's own-node watch that did not fire before the leader's
    // departure): only a deletion watch is needed then, and the queue's own-node watch is one
    // (failing that, a getData that is not waited for).
    let proven = this.granted;
    for (let failures = 0; ; proven = false) {
      try {
        const owned = proven && this.takeOwnNodeWatch() ? undefined : this.checkOwnNode(attempt, proven);
        if (!this.tookOver) {
          // The take-over's read of the ready znode came with the grant (sent with the granting
          // listing, or kept fresh by the standby), or goes out right behind the ownership check:
          // one round trip for both on the way to leadership.
          this.takingOver ??= this.startTakeOver(proven ? undefined : owned);
          await this.takingOver;
          if (attempt.superseded) return;
        }
        if (!proven) await owned;
        if (attempt.superseded) return;
        // A state change that landed meanwhile has superseded `attempt`; this is the last check.
        if (!isConnectedState(this.session.state) || this.session.sessionId !== this.entry.sessionId) return;
        return this.lead();
      } catch (error) {
        if (attempt.superseded) return; // superseded, or the term ended
        if (error instanceof ForeignNodeError) return this.end('our queue node belongs to another session', false);
        if (ZooKeeperError.is(error, 'NONODE')) return this.end('our queue node is gone', false);
        if (error instanceof SessionClosedError) return this.end('the session was closed', false);
        if (error instanceof LeadershipLostError) return this.end(error.message, true);
        if (error instanceof ZooKeeperError && (error.isConnectionError || error.isSessionGone)) {
          // Disconnected or gone: the next state event calls us again. Still connected: look again shortly.
          if (!isConnectedState(this.session.state) || !(await pause(100, attempt.signal))) return;
          continue;
        }
        // Recovery failed (or the ready state is unreadable): retry in place, leadership unreported.
        failures++;
        const delay = backoffDelay(failures);
        this.hooks.logger.error(`Taking over leadership of ${this.entry.dir} failed (attempt ${failures}), retrying in ${delay} ms: ${describe(error)}`);
        if (!(await pause(delay, attempt.signal))) return;
      }
    }
  }

  /** The grant's standing watch on our node, taken (once) to end the term on its deletion. */
  private takeOwnNodeWatch(): boolean {
    const watch = this.ownNodeWatch;
    if (!watch || this.ownNodeWatchTaken) return false;
    this.ownNodeWatchTaken = true;
    this.nodeWatched = true;
    watch.take((event) => this.onNodeEvent(event));
    return true;
  }

  /**
   * Checks that our node exists and is ours, leaving a watch that ends the term on its deletion.
   * `getData`, not `exists`: the stat carries ephemeralOwner, and on a deleted node no watch is left.
   * `proven`: not waited for; a node lost meanwhile ends the term here.
   */
  private checkOwnNode(attempt: CheckAttempt, proven: boolean): Promise<void> {
    // Not right after the grant (a reconnection, say), the member that answers may lag behind the
    // leader: its copy can still show our node after someone deleted it, while the next participant,
    // on an up-to-date member, is granted leadership. A sync first, pipelined (the member answers
    // the read after it), makes the read show everything committed before it.
    const synced = proven ? undefined : this.session.sync(this.entry.path);
    const owned = Promise.all([synced, this.readOwnNode()]).then(([, { stat }]) => {
      if (stat.ephemeralOwner !== this.entry.sessionId) throw new ForeignNodeError();
    });
    owned.catch((error: unknown) => {
      if (!proven || attempt.superseded) return; // awaited (or superseded)
      if (error instanceof ForeignNodeError) this.end('our queue node belongs to another session', false);
      else if (ZooKeeperError.is(error, 'NONODE')) this.end('our queue node is gone', false);
    });
    return owned;
  }

  private lead(): void {
    if (this.phase === 'leading') return; // confirmed while still leading (policy `deadline`)
    this.phase = 'leading';
    this.tenure = new AbortController();
    this.hooks.report({ token: this.entry.token, signal: this.tenure.signal });
  }

  private stopReporting(reason: string): void {
    const tenure = this.tenure;
    if (!tenure) return;
    this.tenure = undefined;
    tenure.abort(new LeadershipLostError(this.entry.dir, 'this process no longer reports leadership'));
    this.hooks.report(undefined, reason);
  }

  /** `getData` of our node, leaving a watch on it unless one stands already. */
  private readOwnNode(): ReturnType<ZkSessionClient['getData']> {
    if (this.nodeWatched) return this.session.getData(this.entry.path);
    this.nodeWatched = true;
    return this.session.getData(this.entry.path, (event) => this.onNodeEvent(event)).catch((error: unknown) => {
      this.nodeWatched = false; // no reply, or NONODE: the C client kept no watch
      throw error;
    });
  }

  private onNodeEvent(event: WatchEvent): void {
    this.nodeWatched = false; // one-shot: spent
    if (this.phase === 'ended') return;
    if (event.type === 'deleted') return this.end('our queue node was deleted', false);
    // Data changed (by hand): the one-shot watch is spent, so set it again.
    if (event.type === 'changed') {
      this.readOwnNode().catch((error: unknown) => {
        if (ZooKeeperError.is(error, 'NONODE')) this.end('our queue node is gone', false);
      });
    }
  }
}

/** The reason a superseded check's pause is aborted with (nobody reads it; given, no default reason is built per abort). */
const SUPERSEDED = new Error('superseded');

/**
 * One check's cancellation. A plain flag, and an AbortSignal only for a pause that must end when
 * the check is superseded: an AbortController, and aborting one (an event dispatch), is the costly
 * way on the path to leadership, and a check seldom pauses.
 */
class CheckAttempt {
  superseded = false;
  private controller: AbortController | undefined;

  supersede(): void {
    this.superseded = true;
    this.controller?.abort(SUPERSEDED);
  }

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.superseded) this.controller.abort(SUPERSEDED);
    return this.controller.signal;
  }
}

/** Our queue node's `ephemeralOwner` is not our session. */
class ForeignNodeError extends Error {}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
