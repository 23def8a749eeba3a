import { LockLostError } from '../../errors/lock-lost.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import type { MultiOp } from '../../zookeeper/protocol/multi.js';
import type { InterruptedSection, ReadyRead, ReadyRecord } from './ready-record.js';
import { holderGone } from './write-retry.js';

/** A guarded section in progress (see `ReadyState`): `checkpoint()` while working, `complete()` at the end. */
export interface SectionHandle {
  /** The interrupted predecessor that the recovery handler repaired on entry, if any. */
  readonly recovered: InterruptedSection | undefined;
  checkpoint(progress: unknown): Promise<void>;
  complete(): Promise<void>;
}

/**
 * What a section that completes leaves in the ready znode:
 * - `'mark-ready'`: the record, marked `ready` under the holder's token (an election's: a new
 *   leader's take-over writes its token there to fence earlier leaders, so the record stays);
 * - `'delete'`: nothing (a lock's): its versioned delete, so that a per-entity lock's container
 *   directory goes once its last holder left. A missing record means what a clean one does (no
 *   section to repair), and the token it held is no floor anybody needs: tokens are zxids, which
 *   grow across re-created directories (`fencing.ts`); and a holder's writes are applied only while
 *   it holds (see `ReadyState.enter`), so no stale holder can slip a record in where the clean one was.
 */
export type Completion = 'mark-ready' | 'delete';

/** What a section needs of its ready znode (`ReadyState` provides it). */
export interface ReadyRecordStore {
  readonly path: string;
  read(): Promise<ReadyRead>;
  write(record: ReadyRecord, version: number): Promise<number>;
  writeThroughConnectionLoss(record: ReadyRecord, version: number, signal?: AbortSignal): Promise<number>;
  delete(version: number): Promise<void>;
  deleteThroughConnectionLoss(version: number, signal?: AbortSignal): Promise<void>;
}

/** One versioned step on the record: tried through connection loss, or once; resolves with the record's new version. */
interface Step {
  through(version: number): Promise<number>;
  once(version: number): Promise<number>;
}

/** The record's version once it is deleted (no write follows a completion). */
const DELETED = -1;

/** A section in progress under the ready state: `checkpoint()` while working, `complete()` at the end. */
export class GuardedSection {
  private finished = false;
  /** Set when a write showed that the section lost the ready state (or its lease ended); it can never complete then. */
  private lost: Error | undefined;

  constructor(
    private readonly state: ReadyRecordStore,
    private record: ReadyRecord,
    private version: number,
    /** The interrupted predecessor that was repaired on entry, if any. */
    readonly recovered: InterruptedSection | undefined,
    /** The owner's lease (or tenure) signal: once it aborts, this section writes nothing more. */
    private readonly signal?: AbortSignal,
    /** What completing leaves (see `Completion`). */
    private readonly completion: Completion = 'mark-ready',
  ) {}

  /** Records progress (any JSON value); a holder that takes over after a crash receives the last one. */
  async checkpoint(checkpoint: unknown): Promise<void> {
    if (this.finished) throw new LockLostError(this.state.path, 'the guarded section has already ended');
    await this.update({ ...this.record, checkpoint });
  }

  /** Marks the work done: the next holder will not run recovery. */
  async complete(): Promise<void> {
    // A section that lost the state (even if its caller swallowed that error) must not report
    // completion: the next holder has to repair it.
    if (this.lost) throw this.lost;
    if (this.finished) return;
    const ready: ReadyRecord = { v: 1, state: 'ready', token: this.record.token, holder: this.record.holder, since: Date.now() };
    if (this.completion === 'delete') {
      const { state, signal } = this;
      const gone = async () => DELETED;
      await this.update(ready, {
        through: (version) => state.deleteThroughConnectionLoss(version, signal).then(gone),
        once: (version) => state.delete(version).then(gone),
      });
    } else {
      await this.update(ready);
    }
    this.finished = true;
  }

  /**
   * The completion as an op of a transaction that releases the lock along with it
   * (`CompletingRelease`): the versioned delete of the record. Undefined when there is none to send
   * that way: the section marks ready (an election's), has ended, or lost the state.
   */
  completionOp(): Extract<MultiOp, { type: 'delete' }> | undefined {
    if (this.completion !== 'delete' || this.finished || this.lost) return undefined;
    return { type: 'delete', path: this.state.path, version: this.version };
  }

  /**
   * The transaction that carried `completionOp()` came back: without `failure` it was applied (the
   * section completed); with one, the section ends uncompleted (its record stays for the next
   * holder), and `complete()` would reject with `failure`.
   */
  endedInTransaction(failure?: Error): void {
    this.finished = true;
    if (failure) this.lost = failure;
  }

  /**
   * `completionOp()` met BADVERSION: true when the record still carries this section's token, at a
   * newer version (a write of ours that landed unanswered, see `update`), which the next
   * `completionOp()` names; false when another holder wrote it.
   */
  async adoptNewerOwnVersion(): Promise<boolean> {
    const current = await this.state.read();
    if (current?.record.token !== this.record.token) return false;
    this.version = current.version;
    return true;
  }

  /** Writes `record` (or takes `step` on the record, standing for that write) at the version this section last wrote. */
  private async update(record: ReadyRecord, step: Step = this.writing(record)): Promise<void> {
    if (this.signal?.aborted) {
      // The lease ended: whoever holds next may be writing already, and must find our state dirty.
      this.finished = true;
      throw (this.lost = holderGone(this.signal, this.state.path));
    }
    try {
      try {
        this.version = await step.through(this.version);
      } catch (error) {
        if (!ZooKeeperError.is(error, 'BADVERSION')) throw error;
        // An earlier write of ours may have been applied although its reply was lost (connection
        // loss): the record then carries our token at a newer version. Only this section writes
        // under our token while our lease lasts (a later tenure of the same leader token starts
        // after this signal aborted), so that version is ours to continue from; any other is not.
        const current = await this.state.read();
        if (current?.record.token !== this.record.token || this.signal?.aborted) throw error;
        this.version = await step.once(current.version);
      }
      this.record = record;
    } catch (error) {
      if (ZooKeeperError.is(error, 'BADVERSION', 'NONODE')) {
        this.finished = true;
        throw (this.lost = stateTaken(this.state.path));
      }
      // The session the lease lived on is gone (e.g. this process was paused past the session
      // timeout and writes before it noticed): the lock is lost for certain, whatever the code.
      if (error instanceof ZooKeeperError && error.isSessionGone) {
        this.finished = true;
        throw (this.lost = sessionGone(this.state.path, error));
      }
      // The lease ended while the write waited for a reconnection: as above.
      if (this.signal?.aborted) {
        this.finished = true;
        throw (this.lost = holderGone(this.signal, this.state.path));
      }
      throw error;
    }
  }

  /** The plain step: a versioned write of `record`. */
  private writing(record: ReadyRecord): Step {
    return {
      through: (version) => this.state.writeThroughConnectionLoss(record, version, this.signal),
      once: (version) => this.state.write(record, version),
    };
  }
}

/** What a section's write rejects with when the record is not its own any more (BADVERSION, NONODE). */
export function stateTaken(path: string): LockLostError {
  return new LockLostError(path, 'another holder has written the ready state since this section began');
}

/** What a section's write on a session that is gone rejects with: the lock went with it. */
export function sessionGone(path: string, error: ZooKeeperError): LockLostError {
  return new LockLostError(path, `the session holding the lock is gone (${error.zkCode})`);
}
