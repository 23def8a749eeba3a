import { CorruptStateError } from '../../errors/corrupt-state.error.js';
import type { Owners, PartitionMember } from './assignment.js';

/** The data of a member node: who the replica is, its weight, and the partitions it asked to give up. */
export interface MemberRecord {
  readonly v: 1;
  readonly identity: string;
  readonly capacity: number;
  readonly declined: readonly number[];
}

/**
 * The assignment znode's data: the partition count it was computed for and each partition's
 * owner, as an index into `members` (member node names), -1 for none. Compact: 64 partitions and
 * a handful of members fit in well under a kilobyte.
 */
interface AssignmentRecord {
  readonly v: 1;
  readonly count: number;
  readonly members: readonly string[];
  readonly owners: readonly number[];
}

export function encodeMember(record: MemberRecord): Buffer {
  return Buffer.from(JSON.stringify(record));
}

/** The member of node `id` as the assignment sees it; malformed data: `CorruptStateError` naming `path`. */
export function parseMember(path: string, id: string, data: Buffer): PartitionMember & { readonly identity: string } {
  const record = parseJson(path, data) as Partial<MemberRecord> | null;
  if (
    record === null ||
    typeof record !== 'object' ||
    typeof record.identity !== 'string' ||
    !Number.isInteger(record.capacity) ||
    record.capacity! < 1 ||
    !Array.isArray(record.declined) ||
    !record.declined.every((k) => Number.isInteger(k))
  ) {
    throw new CorruptStateError(path, 'not a partition member record');
  }
  return { id, identity: record.identity, capacity: record.capacity!, declined: record.declined };
}

export function encodeAssignment(count: number, owners: Owners): Buffer {
  const members = [...new Set(owners.filter((owner): owner is string => owner !== null))].sort();
  const index = new Map(members.map((member, i) => [member, i]));
  const record: AssignmentRecord = { v: 1, count, members, owners: owners.map((owner) => (owner === null ? -1 : index.get(owner)!)) };
  return Buffer.from(JSON.stringify(record));
}

/** The owners of each partition (member node names), and the count they were computed for. */
export function parseAssignment(path: string, data: Buffer): { readonly count: number; readonly owners: Owners } {
  const record = parseJson(path, data) as Partial<AssignmentRecord> | null;
  if (
    record === null ||
    typeof record !== 'object' ||
    !Number.isInteger(record.count) ||
    !Array.isArray(record.members) ||
    !Array.isArray(record.owners) ||
    record.owners.length !== record.count ||
    !record.owners.every((i) => Number.isInteger(i) && i >= -1 && i < record.members!.length)
  ) {
    throw new CorruptStateError(path, 'not a partition assignment record');
  }
  const members = record.members;
  return { count: record.count!, owners: record.owners.map((i) => (i === -1 ? null : String(members[i]))) };
}

function parseJson(path: string, data: Buffer): unknown {
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    throw new CorruptStateError(path, 'not JSON');
  }
}
