import type { ZkLockEvent } from '../observability/zk-lock-event.js';

/** One line of the dashboard's timeline: JSON as it is (tokens as decimal strings). */
export interface TimelineEntry {
  /** When this process saw it, ISO 8601. */
  readonly at: string;
  /** The event's type (`lock.acquired`, `leadership.gained`, …), or `lock.holder` / `election.leader` for a change seen by the watches. */
  readonly type: string;
  /** The lock or election, or `session` for the session's states. */
  readonly name: string;
  /** What happened, for people: token, wait or hold time, reason. */
  readonly detail: string;
  /**
   * Whose it is: `process`, an event of this process (its own locks, elections and session);
   * `cluster`, a change of holder or leader seen by the dashboard's watches, whichever process made it.
   */
  readonly origin: 'process' | 'cluster';
}

const token = (value: bigint | undefined) => (value === undefined ? '' : `token ${value.toString()}`);
const join = (...parts: string[]) => parts.filter((part) => part !== '').join(', ');
/** A duration for people: whole milliseconds (the events carry `performance.now()` differences). */
const ms = (value: number) => `${Math.round(value)} ms`;
const reasonOf = (reason: unknown) => (reason instanceof Error ? reason.message : String(reason));
/** A lock event names its lock, a leadership event its election. */
const nameOf = (event: { readonly name: string } | { readonly election: string }) => ('name' in event ? event.name : event.election);

/** The timeline's line for one of this process's events. */
export function timelineEntryOf(event: ZkLockEvent): TimelineEntry {
  return { ...describeEvent(event), origin: 'process' };
}

function describeEvent(event: ZkLockEvent): Omit<TimelineEntry, 'origin'> {
  const at = new Date().toISOString();
  switch (event.type) {
    case 'session.state':
      return { at, type: event.type, name: 'session', detail: join(`${event.previous} → ${event.state}`, event.sessionId ? `session 0x${event.sessionId}` : '') };
    case 'lock.acquired':
      return { at, type: event.type, name: event.name, detail: join(token(event.token), `waited ${ms(event.waitMs)}`) };
    case 'lock.released':
      return { at, type: event.type, name: event.name, detail: join(token(event.token), `held ${ms(event.holdMs)}`) };
    case 'lock.lost':
      return { at, type: event.type, name: event.name, detail: join(token(event.token), event.reason) };
    case 'lock.recovery':
    case 'leadership.recovery':
      return { at, type: event.type, name: nameOf(event), detail: join(token(event.token), `repairing ${event.interrupted.holder}'s section (token ${event.interrupted.token.toString()})`, 'outcome' in event ? event.outcome : '') };
    case 'lock.timeout':
      return { at, type: event.type, name: event.name, detail: `gave up after ${ms(event.waitMs)}` };
    case 'lock.aborted':
    case 'lock.failed':
      return { at, type: event.type, name: event.name, detail: reasonOf('reason' in event ? event.reason : event.error) };
    case 'lock.release-requested':
    case 'leadership.gained':
    case 'leadership.step-down':
      return { at, type: event.type, name: nameOf(event), detail: token(event.token) };
    case 'leadership.lost':
      return { at, type: event.type, name: event.election, detail: join(token(event.token), event.reason) };
    default:
      return { at, type: event.type, name: event.name, detail: '' };
  }
}

/** The timeline's line for a change of a lock's holder or an election's leader, seen by the dashboard's watches. */
export function successionEntry(kind: 'lock' | 'election', name: string, now: { readonly node: string; readonly identity: string | null } | null | undefined): TimelineEntry {
  const who = now ? (now.identity ?? now.node) : undefined;
  const detail = kind === 'lock' ? (who === undefined ? 'free' : `held by ${who}`) : who === undefined ? 'no leader' : `led by ${who}`;
  return { at: new Date().toISOString(), type: kind === 'lock' ? 'lock.holder' : 'election.leader', name, detail, origin: 'cluster' };
}
