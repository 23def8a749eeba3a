import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs';
import { ElectionClosedError } from '../errors/election-closed.error.js';
import { LeadershipLostError } from '../errors/leadership-lost.error.js';
import { LockLostError } from '../errors/lock-lost.error.js';
import type { ZkLockEventSink } from '../observability/event-sink.js';
import type { LeadershipEvent } from '../observability/zk-lock-event.js';
import type { Election } from '../recipes/contracts.js';
import type { LeaderElectionLogger } from '../recipes/leader-election.js';
import { LeaderSections } from '../recipes/leader-sections.js';
import { LeaderSection, recoveryHandle, type LeaderTenure } from '../recipes/leader-work.js';
import { validateLockName } from '../recipes/lock-name.js';
import type { InterruptedSection, RecoveryHandler } from '../recipes/ready-state.js';
import { znodePaths } from '../recipes/znode-paths.js';
import { MemoryReadyState, type TokenClock } from './memory-ready-state.js';

export interface MemoryElectionOptions {
  readonly root: string;
  readonly name: string;
  readonly identity: string;
  readonly drainTimeoutMs: number;
  /** Bound of the ready record's size (`maxRecordBytes`), as on ZooKeeper. */
  readonly maxRecordBytes: number;
  readonly clock: TokenClock;
  readonly events: ZkLockEventSink;
  readonly logger?: LeaderElectionLogger;
}

interface MemoryTenure extends LeaderTenure {
  readonly controller: AbortController;
}

/**
 * `Election` in memory: leadership is whatever the test says (`gain()` / `lose()`, driven through
 * `ZkLockTesting.setLeader`), with `LeaderElection`'s semantics around it: a new leader runs the
 * recovery handler before `isLeader$` emits true when the previous leader was interrupted
 * mid-section; leader sections are scheduled by the same `LeaderSections` (one at a time per
 * leadership, nested calls inside the enclosing section or recovery) as guarded sections (dirty
 * while running, ready when done, recovered before the next one if one threw); losing leadership
 * aborts their signal and makes them end with `LeadershipLostError`; `resign()` drains them;
 * `close()` is final.
 */
export class MemoryElection implements Election {
  readonly name: string;
  readonly path: string;
  private readonly leading = new BehaviorSubject<boolean>(false);
  private readonly leader = new BehaviorSubject<string | null>(null);
  private readonly ready: MemoryReadyState;
  private handler: RecoveryHandler | undefined;
  private tenure: MemoryTenure | undefined;
  private gaining: Promise<void> | undefined;
  private participating = false;
  private closed = false;
  /** Aborts when leadership is lost while the take-over (recovery) runs. */
  private takingOver: AbortController | undefined;
  private readonly sections = new LeaderSections<LeaderSection>();

  constructor(private readonly options: MemoryElectionOptions) {
    this.name = validateLockName(options.name);
    this.path = znodePaths.electionDir(options.root, options.name);
    this.ready = new MemoryReadyState(this.path, options.maxRecordBytes);
  }

  get isLeader$(): Observable<boolean> {
    return this.leading.asObservable();
  }

  get isLeader(): boolean {
    return this.tenure !== undefined;
  }

  get leader$(): Observable<string | null> {
    return this.leader.pipe(distinctUntilChanged());
  }

  get token(): bigint | undefined {
    return this.tenure?.token;
  }

  get isParticipating(): boolean {
    return this.participating;
  }

  get hasRecoveryHandler(): boolean {
    return this.handler !== undefined;
  }

  get inSection(): boolean {
    return this.sections.inSection;
  }

  async participants(): Promise<string[]> {
    return this.participating ? [this.options.identity] : [];
  }

  join(): void {
    if (this.closed) throw new ElectionClosedError(this.name);
    this.participating = true;
  }

  async resign(): Promise<void> {
    if (!this.participating) return;
    this.participating = false;
    this.lose('resigned');
    await this.drain();
  }

  onRecovery(handler: RecoveryHandler): () => void {
    if (typeof handler !== 'function') throw new TypeError('onRecovery expects a function');
    this.handler = handler;
    return () => {
      if (this.handler === handler) this.handler = undefined;
    };
  }

  runAsLeader<T>(fn: (section: LeaderSection) => T | Promise<T>): Promise<T | undefined> {
    const joined = this.sections.join(fn);
    if (joined) return joined;
    const tenure = this.tenure;
    if (!tenure) return Promise.resolve(undefined);
    return this.sections.schedule(tenure, (body) => this.runSection(tenure, body), fn);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.resign();
    this.leading.complete();
    this.leader.complete();
  }

  /**
   * Takes leadership (joining if needed): recovers an interrupted predecessor first, then reports
   * it. Rejects with `RecoveryFailedError` (not leading; the state stays dirty) if the handler throws.
   */
  gain(): Promise<void> {
    if (this.closed) return Promise.reject(new ElectionClosedError(this.name));
    if (this.tenure) return Promise.resolve();
    this.participating = true;
    this.gaining ??= this.takeOver().finally(() => (this.gaining = undefined));
    return this.gaining;
  }

  /** Stops reporting leadership: sections' signal aborts with `LeadershipLostError(reason)`. */
  lose(reason: string): void {
    this.takingOver?.abort(new LeadershipLostError(this.path, `the take-over was interrupted: ${reason}`));
    const tenure = this.tenure;
    if (!tenure) return;
    this.tenure = undefined;
    tenure.controller.abort(new LeadershipLostError(this.path, 'this process no longer reports leadership'));
    this.leading.next(false);
    this.leader.next(null);
    this.report({ type: 'leadership.lost', election: this.name, path: this.path, identity: this.options.identity, token: tenure.token, reason });
  }

  /** Leaves the ready state as if an earlier leader had died mid-section. */
  interrupt(holder: string, checkpoint: unknown): InterruptedSection {
    if (this.tenure) {
      throw new Error(`this process leads election "${this.name}": interruptLeader() stands for an earlier leader; setLeader(false) first`);
    }
    return this.ready.interrupt(this.options.clock.next(), holder, checkpoint);
  }

  private async takeOver(): Promise<void> {
    const token = this.options.clock.next();
    const control = (this.takingOver = new AbortController());
    try {
      await this.ready.claim({ token, holder: this.options.identity }, (interrupted) => this.recover(interrupted, { token, signal: control.signal }));
    } finally {
      this.takingOver = undefined;
    }
    if (this.closed || this.tenure) return;
    const controller = new AbortController();
    this.tenure = { token, signal: controller.signal, controller };
    this.leading.next(true);
    this.leader.next(this.options.identity);
    this.report({ type: 'leadership.gained', election: this.name, path: this.path, identity: this.options.identity, token });
  }

  private async runSection<T>(tenure: MemoryTenure, fn: (section: LeaderSection) => Promise<T>): Promise<T> {
    // A section of ours that threw (or was left by an earlier leadership) left the state dirty: it
    // is recovered before new work. The tenure's signal ends the section's writes when it ends.
    const owner = { token: tenure.token, holder: this.options.identity, signal: tenure.signal };
    const section = await fenced(this.path, () => this.ready.enter(owner, (i) => this.recover(i, tenure)));
    const value = await fn(new LeaderSection(tenure, section, this.path));
    if (tenure.signal.aborted) throw new LeadershipLostError(this.path, 'leadership ended while the section ran');
    await fenced(this.path, () => section.complete());
    return value;
  }

  private async recover(interrupted: InterruptedSection, tenure: LeaderTenure): Promise<void> {
    const { token } = tenure;
    const base = { type: 'leadership.recovery', election: this.name, path: this.path, identity: this.options.identity, token, interrupted } as const;
    const handler = this.handler;
    if (!handler) {
      this.options.logger?.warn(`Leader ${interrupted.holder} (token ${interrupted.token}) was interrupted mid-work in ${this.path} and no recovery handler is registered: marking it repaired`);
      return this.report({ ...base, outcome: 'unhandled' });
    }
    try {
      // Leader work the handler calls runs as part of the recovery, as in `LeaderWork`.
      const recovery = new LeaderSection(tenure, recoveryHandle(interrupted), this.path);
      await this.sections.enclose(tenure, recovery, () => handler(interrupted, { token }));
    } catch (error) {
      this.report({ ...base, outcome: 'failed', error });
      throw error;
    }
    this.report({ ...base, outcome: 'repaired' });
  }

  private async drain(): Promise<void> {
    await this.sections.drain(this.options.drainTimeoutMs);
  }

  private report(event: LeadershipEvent): void {
    if (this.options.events.wants('leadership')) this.options.events.emit('leadership', event);
  }
}

/** A lost ready-state write means leadership, not a lock, was lost (as in `LeaderWork`). */
async function fenced<T>(path: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof LockLostError) throw new LeadershipLostError(path, error.reason);
    throw error;
  }
}
