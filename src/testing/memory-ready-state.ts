import { LockLostError } from '../errors/lock-lost.error.js';
import { RecordTooLargeError } from '../errors/record-too-large.error.js';
import { RecoveryFailedError } from '../errors/recovery-failed.error.js';
import type { SectionHandle } from '../recipes/contracts.js';
import { encode } from '../recipes/ready-record.js';
import type { InterruptedSection, RecoveryHandler, SectionOwner } from '../recipes/ready-state.js';
import { holderGone } from '../recipes/write-retry.js';
import { znodePaths } from '../recipes/znode-paths.js';

export interface MemoryRecord {
  readonly state: 'ready' | 'dirty';
  readonly token: bigint;
  readonly holder: string;
  readonly since: number;
  readonly checkpoint?: unknown;
}

/** Hands out fencing tokens that strictly increase across every lock and election of one module. */
export class TokenClock {
  private last = 0n;

  next(): bigint {
    return ++this.last;
  }
}

/**
 * The in-memory counterpart of `ReadyState` (the ready znode of a lock or election), with the
 * same rules: a section marks the state dirty under its token, checkpoints progress, and marks
 * it ready when it completes; whoever finds it dirty runs the recovery handler first (the state
 * stays dirty if that throws: `RecoveryFailedError`). A version number stands in for the znode
 * version, so that a section whose state was overwritten fails with `LockLostError`. A record
 * whose stored form would exceed `maxRecordBytes` is refused with `RecordTooLargeError`, as the
 * session refuses it before sending: an oversized checkpoint must fail in unit tests too.
 */
export class MemoryReadyState {
  readonly path: string;
  private record: MemoryRecord | undefined;
  private version = 0;

  constructor(
    dir: string,
    /** The module's `maxRecordBytes`. */
    private readonly maxRecordBytes: number,
  ) {
    this.path = znodePaths.ready(dir);
  }

  /** What the next holder's recovery handler will receive, if the state is dirty. */
  get interrupted(): InterruptedSection | undefined {
    const record = this.record;
    if (record?.state !== 'dirty') return undefined;
    return { holder: record.holder, token: record.token, since: record.since, checkpoint: record.checkpoint };
  }

  /** Leaves the state as a holder with `token` that died mid-section after checkpointing `checkpoint`. */
  interrupt(token: bigint, holder: string, checkpoint: unknown): InterruptedSection {
    this.write({ state: 'dirty', token, holder, since: Date.now(), checkpoint });
    return this.interrupted!;
  }

  /** Enters a guarded section for `owner`: recovers a dirty state first, then marks it dirty under `owner`. */
  async enter(owner: SectionOwner, recover: RecoveryHandler | undefined): Promise<MemorySection> {
    const recovered = await this.recoverIfDirty(owner, recover);
    if (owner.signal?.aborted) throw holderGone(owner.signal, this.path); // the lease ended during the recovery
    const version = this.write({ state: 'dirty', token: owner.token, holder: owner.holder, since: Date.now() });
    return new MemorySection(this, version, recovered, owner.signal);
  }

  /** A new leader's take-over: recovers a dirty state first, then marks it ready under `owner`. */
  async claim(owner: SectionOwner, recover: RecoveryHandler): Promise<InterruptedSection | undefined> {
    const recovered = await this.recoverIfDirty(owner, recover);
    this.write({ state: 'ready', token: owner.token, holder: owner.holder, since: Date.now() });
    return recovered;
  }

  /** Writes if nobody wrote since `expected` (the version the writer read); returns the new version. */
  update(expected: number, change: (record: MemoryRecord) => MemoryRecord): number {
    if (this.version !== expected || !this.record) {
      throw new LockLostError(this.path, 'another holder has written the ready state since this section began');
    }
    return this.write(change(this.record));
  }

  private async recoverIfDirty(owner: SectionOwner, recover: RecoveryHandler | undefined): Promise<InterruptedSection | undefined> {
    if (this.record && this.record.token > owner.token) {
      throw new LockLostError(this.path, `a newer holder (token ${this.record.token}) owns the ready state`);
    }
    const interrupted = this.interrupted;
    if (!interrupted || !recover) return interrupted;
    try {
      await recover(interrupted, { token: owner.token });
    } catch (error) {
      throw new RecoveryFailedError(this.path, error);
    }
    return interrupted;
  }

  private write(record: MemoryRecord): number {
    // Measured on the record as `ReadyState` would store it (JSON, token as a string), so that
    // the same checkpoint is refused here and in production, and nothing is changed when it is.
    const size = encode({ v: 1, ...record, token: record.token.toString() }).length;
    if (size > this.maxRecordBytes) throw new RecordTooLargeError(this.path, size, this.maxRecordBytes);
    this.record = record;
    return ++this.version;
  }
}

/** A guarded section in progress on a `MemoryReadyState`. */
export class MemorySection implements SectionHandle {
  private finished = false;
  private lost: Error | undefined;

  constructor(
    private readonly state: MemoryReadyState,
    private version: number,
    readonly recovered: InterruptedSection | undefined,
    /** The owner's lease (or tenure) signal: once it aborts, the section writes nothing more (as `GuardedSection`). */
    private readonly signal?: AbortSignal,
  ) {}

  async checkpoint(progress: unknown): Promise<void> {
    if (this.finished) throw new LockLostError(this.state.path, 'the guarded section has already ended');
    this.write((record) => ({ ...record, checkpoint: progress }));
  }

  async complete(): Promise<void> {
    if (this.lost) throw this.lost;
    if (this.finished) return;
    this.write((record) => ({ state: 'ready', token: record.token, holder: record.holder, since: Date.now() }));
    this.finished = true;
  }

  private write(change: (record: MemoryRecord) => MemoryRecord): void {
    if (this.signal?.aborted) {
      this.finished = true;
      throw (this.lost = holderGone(this.signal, this.state.path));
    }
    try {
      this.version = this.state.update(this.version, change);
    } catch (error) {
      // Refused before anything was written (as by the session): the section carries on.
      if (error instanceof RecordTooLargeError) throw error;
      this.finished = true;
      throw (this.lost = error as LockLostError);
    }
  }
}
