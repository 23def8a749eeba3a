import { CorruptStateError } from '../../errors/corrupt-state.error.js';

/** The ready znode's content (JSON): the state, and who wrote it under which token. */
export interface ReadyRecord {
  readonly v: 1;
  readonly state: 'ready' | 'dirty';
  readonly token: string;
  readonly holder: string;
  readonly since: number;
  readonly checkpoint?: unknown;
}

/** What a holder that died (or threw) mid-section left behind, handed to the recovery handler. */
export interface InterruptedSection<Checkpoint = unknown> {
  /** Identity of the holder that did not finish. */
  readonly holder: string;
  /** Its fencing token. */
  readonly token: bigint;
  /** When it entered the section (epoch ms). */
  readonly since: number;
  /** The last value it passed to `checkpoint()`, if any. */
  readonly checkpoint: Checkpoint | undefined;
}

/** What `read` resolves with: the record and its version, or undefined when no section ever ran. */
export type ReadyRead = { record: ReadyRecord; version: number } | undefined;

/** The record as stored. */
export function encode(record: ReadyRecord): Buffer {
  return Buffer.from(JSON.stringify(record));
}

/** The record in `data` of the znode at `path`; malformed: `CorruptStateError`. */
export function parseRecord(path: string, data: Buffer): ReadyRecord {
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch {
    throw new CorruptStateError(path, 'not JSON');
  }
  const record = value as Partial<ReadyRecord> | null;
  if (
    record === null ||
    typeof record !== 'object' ||
    (record.state !== 'ready' && record.state !== 'dirty') ||
    typeof record.token !== 'string' ||
    !/^\d+$/.test(record.token) ||
    typeof record.holder !== 'string' ||
    typeof record.since !== 'number'
  ) {
    throw new CorruptStateError(path, 'not a ready-state record');
  }
  return record as ReadyRecord;
}
