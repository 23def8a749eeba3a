import type { ZkIdentity } from '../zookeeper/types.js';
import type { InspectedNode, InspectedPartitionSet, InspectedReady, Inspection } from './inspect.js';

/** What the header names besides the inspection itself. */
export interface RenderContext {
  /** The connect string the reading came from. */
  readonly connect: string;
  /** Who the server knows the reading's session as (`whoAmI`), when known. */
  readonly identities?: readonly ZkIdentity[];
}

const CHECKPOINT_PREVIEW = 120;

/**
 * The inspection as text for a terminal: per lock its holder and waiters, per election its
 * leader and followers, in queue order, each with identity, session, age, node zxid and node
 * name, then the ready state. Node data is shown with control characters escaped, so a stray
 * identity cannot move the cursor.
 */
export function renderText(inspection: Inspection, context: RenderContext): string {
  const as = context.identities?.length ? `  as ${context.identities.map(({ scheme, user }) => printable(`${scheme}:${user}`)).join(', ')}` : '';
  const lines: string[] = [`ZooKeeper ${context.connect}  root ${inspection.root}  at ${inspection.at}${as}`, ''];

  lines.push(`LOCKS (${inspection.locks.length})`);
  if (inspection.locks.length === 0) lines.push('  (none)');
  for (const lock of inspection.locks) {
    const queue = lock.holder ? [lock.holder, ...lock.waiters] : [];
    const asked = lock.holder?.releaseRequested ? ', release requested' : '';
    lines.push(`${printable(lock.name)}: ${lock.holder ? `held by ${identityOf(lock.holder)}` : 'free'}, ${plural(lock.waiters.length, 'waiter')}${asked}`);
    lines.push(...table(queue, (i) => (i === 0 ? 'holder' : 'waiter')), readyLine(lock.ready, inspection.at), '');
  }
  if (inspection.locks.length === 0) lines.push('');

  lines.push(`ELECTIONS (${inspection.elections.length})`);
  if (inspection.elections.length === 0) lines.push('  (none)');
  for (const election of inspection.elections) {
    const queue = election.leader ? [election.leader, ...election.followers] : [];
    const asked = election.leader?.releaseRequested ? ', asked to step down' : '';
    lines.push(`${printable(election.name)}: ${election.leader ? `led by ${identityOf(election.leader)}` : 'no leader'}, ${plural(election.followers.length, 'follower')}${asked}`);
    lines.push(...table(queue, (i) => (i === 0 ? 'leader' : 'follower')), readyLine(election.ready, inspection.at), '');
  }
  if (inspection.elections.length === 0) lines.push('');

  // Read/write locks and semaphores only when there are some: most applications use neither.
  if (inspection.readWriteLocks.length > 0) lines.push(`READ/WRITE LOCKS (${inspection.readWriteLocks.length})`);
  for (const lock of inspection.readWriteLocks) {
    const queue = [...lock.holders, ...lock.waiters];
    const held = lock.holders.length === 0 ? 'free' : lock.holders[0]!.mode === 'write' ? `written by ${identityOf(lock.holders[0]!)}` : plural(lock.holders.length, 'reader');
    lines.push(`${printable(lock.name)}: ${held}, ${plural(lock.waiters.length, 'waiter')}`);
    lines.push(...table(queue, (i) => `${i < lock.holders.length ? 'holder' : 'waiter'} (${queue[i]!.mode})`), '');
  }
  if (inspection.semaphores.length > 0) lines.push(`SEMAPHORES (${inspection.semaphores.length})`);
  for (const semaphore of inspection.semaphores) {
    const capacity = semaphore.permits === null ? 'no permits taken' : `${semaphore.taken} of ${semaphore.permits} permits taken`;
    const next = semaphore.waiters[0] ? `, the next waits for ${semaphore.waiters[0].take}` : '';
    lines.push(`${printable(semaphore.name)}: ${capacity}${next}, ${plural(semaphore.waiters.length, 'waiter')}`);
    const queue = [...semaphore.holders, ...semaphore.waiters];
    lines.push(...table(queue, (i) => `${i < semaphore.holders.length ? 'holds' : 'waits for'} ${queue[i]!.take}`), '');
  }
  if (inspection.partitionSets.length > 0) lines.push(`PARTITION SETS (${inspection.partitionSets.length})`);
  for (const set of inspection.partitionSets) lines.push(...partitionSetLines(set, inspection.at), '');
  return lines.join('\n').trimEnd() + '\n';
}

/** Queue position, role, identity, session, age, node zxid, node: aligned columns. */
function table(nodes: readonly InspectedNode[], role: (index: number) => string): string[] {
  if (nodes.length === 0) return [];
  return aligned([
    ['#', 'ROLE', 'IDENTITY', 'SESSION', 'AGE', 'NODE ZXID', 'NODE'],
    ...nodes.map((node, i) => [String(i), role(i), identityOf(node), `0x${node.sessionId}`, formatAge(node.ageMs), node.zxid, node.node]),
  ]);
}

function aligned(rows: readonly string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => '  ' + row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '));
}

function readyLine(ready: InspectedReady | null, at: string): string {
  if (ready === null) return '  ready: none';
  if (ready.state === 'corrupt') return `  ready: CORRUPT (${ready.problem})`;
  const state = ready.state === 'dirty' ? 'DIRTY' : 'ready';
  const checkpoint = 'checkpoint' in ready ? `  checkpoint ${preview(ready.checkpoint)}` : '';
  const ago = formatAge(Math.max(0, Date.parse(at) - Date.parse(ready.since)));
  return `  ready: ${state}  token ${ready.token}  holder ${printable(ready.holder)}  since ${ready.since} (${ago} ago)${checkpoint}`;
}

function identityOf(node: InspectedNode): string {
  return node.identity === null ? '-' : printable(node.identity);
}

function preview(value: unknown): string {
  const json = printable(JSON.stringify(value) ?? 'undefined');
  return json.length > CHECKPOINT_PREVIEW ? `${json.slice(0, CHECKPOINT_PREVIEW - 1)}…` : json;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Escapes C0/C1 control characters (escape sequences included). */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** 850ms, 12.3s, 4m05s, 2h03m, 3d04h. */
export function formatAge(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${pad(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${pad(Math.floor(s / 60) % 60)}m`;
  return `${Math.floor(s / 86_400)}d${pad(Math.floor(s / 3600) % 24)}h`;
}

/**
 * A partition set: its members (what each is assigned and owns), then only the partitions worth a
 * look: not owned, owned by another member than the assigned one (moving), or with a dirty ready
 * znode. A set at rest shows its members and one line.
 */
function partitionSetLines(set: InspectedPartitionSet, at: string): string[] {
  const count = set.count === null ? 'no assignment yet' : plural(set.count, 'partition');
  const lines = [`${printable(set.name)}: ${count}, ${plural(set.members.length, 'member')}, assigner ${set.assigner ? identityOf(set.assigner) : 'none'}`];
  if (set.members.length > 0) {
    lines.push(...aligned([
      ['IDENTITY', 'CAPACITY', 'ASSIGNED', 'OWNS', 'DECLINED', 'SESSION', 'MEMBER'],
      ...set.members.map((m) => [printable(m.identity), String(m.capacity), String(m.assigned.length), String(m.owned.length), m.declined.length ? m.declined.join(',') : '-', `0x${m.sessionId}`, printable(m.member)]),
    ]));
  }
  const identityOfMember = (member: string | null) => (member === null ? 'nobody' : printable(set.members.find((m) => m.member === member)?.identity ?? member));
  const notOwned = set.partitions.filter((p) => p.owner === null).map((p) => p.partition);
  const moving = set.partitions.filter((p) => p.owner !== null && p.assignedTo !== null && !set.members.some((m) => m.member === p.assignedTo && m.sessionId === p.owner!.sessionId));
  if (notOwned.length > 0) lines.push(`  not owned: ${notOwned.join(', ')}`);
  for (const p of moving) lines.push(`  partition ${p.partition}: owned by ${identityOf(p.owner!)}, assigned to ${identityOfMember(p.assignedTo)}`);
  if (notOwned.length === 0 && moving.length === 0 && set.partitions.length > 0) lines.push('  every partition owned as assigned');
  for (const p of set.partitions) if (p.ready?.state === 'dirty' || p.ready?.state === 'corrupt') lines.push(`  partition ${p.partition}${readyLine(p.ready, at).replace(/^ {2}ready:/, ' ready:')}`);
  for (const problem of set.problems ?? []) lines.push(`  CORRUPT ${printable(problem)}`);
  return lines;
}
