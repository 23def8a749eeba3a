/**
 * The holds of the lock-set, read/write and semaphore workloads (chaos-worker.ts), from the event
 * logs: one hold per grant of each lock a call takes, measured as holds.ts measures the counter
 * lock's (logging delays can only shrink a hold, never stretch it into a false overlap):
 *
 * - it starts at its `acquired` line (logged after the grant, in the same turn);
 * - it ends at its `lost` line (the signal aborted); or, released, at the call's last activity
 *   (its `body`, `body-work` or `body-end` line, or the grant itself when the body never ran): the
 *   `released` line is written after the delete that hands it on was sent; or at the process's
 *   death for a killed holder (its session, so its nodes, outlive it by a session timeout);
 * - its want is the call's `call` line: from there on, a frozen process may sit on a reply that
 *   grants it (see `stoppedDuring`).
 *
 * Each incarnation runs each workload's calls one after another, so a call's lines are found by its
 * id and each lock of a call is granted at most once.
 */
import type { RecipeWhat } from './event-log.js';
import type { Reconstruction } from './holds.js';

export interface RecipeCall {
  readonly w: number;
  readonly inc: number;
  readonly call: number;
  readonly what: RecipeWhat;
  /** Lock keys it takes (`lockKey`). */
  readonly locks: readonly string[];
  /** A semaphore call's permits taken, and the semaphore's capacity. */
  readonly take: number;
  readonly permits?: number;
  readonly wantAt: number;
  /** Its `call-done` line; undefined when the process died (or the run ended) first. */
  doneAt?: number;
  ok?: boolean;
  /** Its fn ran (false for a busy try-once, a failed wait). */
  ran: boolean;
  error?: string;
}

export interface RecipeHold {
  readonly w: number;
  readonly inc: number;
  readonly call: number;
  readonly what: RecipeWhat;
  readonly lock: string;
  readonly token: string;
  readonly era: number;
  readonly wantAt: number;
  readonly acquiredAt: number;
  /** Permits held (1 for anything but a semaphore), and a semaphore's capacity. */
  readonly take: number;
  readonly permits?: number;
  end: number;
  endKind: 'released' | 'lost' | 'killed' | 'open';
  /** Its call returned normally. */
  completed: boolean;
  error?: string;
}

export interface RecipeRun {
  readonly calls: RecipeCall[];
  /** Sorted by grant. */
  readonly holds: RecipeHold[];
}

export function reconstructRecipes(run: Reconstruction): RecipeRun {
  const calls: RecipeCall[] = [];
  const holds: RecipeHold[] = [];
  const eraAt = (t: number) => run.eraStarts.filter((start) => start <= t).length;
  for (const [key, events] of run.byIncarnation) {
    const death = run.deaths.get(key);
    const endOfLife = death ? death.at : (events.at(-1)?.t ?? 0);
    const byId = new Map<number, RecipeCall>();
    /** Holds of each call, by lock. */
    const held = new Map<number, Map<string, RecipeHold>>();
    const lastActivity = new Map<number, number>();
    const close = (hold: RecipeHold | undefined, end: number, kind: RecipeHold['endKind']) => {
      if (!hold || hold.endKind !== 'open') return;
      hold.end = Math.max(hold.acquiredAt, end);
      hold.endKind = kind;
    };
    // Events are sorted by time (reconstruct sorts each incarnation's list in place).
    for (const event of events) {
      switch (event.ev) {
        case 'call': {
          const call: RecipeCall = { w: event.w, inc: event.inc, call: event.call, what: event.what, locks: event.locks, take: event.take ?? 1, permits: event.permits, wantAt: event.t, ran: false };
          byId.set(event.call, call);
          calls.push(call);
          break;
        }
        case 'acquired': {
          const call = event.call === undefined ? undefined : byId.get(event.call);
          if (!call || event.lock === undefined) break;
          const hold: RecipeHold = {
            w: event.w,
            inc: event.inc,
            call: call.call,
            what: call.what,
            lock: event.lock,
            token: event.token,
            era: eraAt(event.t),
            wantAt: call.wantAt,
            acquiredAt: event.t,
            take: call.what === 'semaphore' ? call.take : 1,
            permits: call.permits,
            end: endOfLife,
            endKind: 'open',
            completed: false,
          };
          const ofCall = held.get(call.call) ?? new Map<string, RecipeHold>();
          close(ofCall.get(event.lock), lastActivity.get(call.call) ?? event.t, 'released'); // granted twice in one call: should not happen
          ofCall.set(event.lock, hold);
          held.set(call.call, ofCall);
          holds.push(hold);
          break;
        }
        case 'lost': {
          const hold = event.call === undefined || event.lock === undefined ? undefined : held.get(event.call)?.get(event.lock);
          if (hold?.token === event.token) close(hold, event.t, 'lost');
          break;
        }
        case 'released': {
          const hold = event.call === undefined || event.lock === undefined ? undefined : held.get(event.call)?.get(event.lock);
          if (hold?.token === event.token) close(hold, lastActivity.get(hold.call) ?? hold.acquiredAt, 'released');
          break;
        }
        case 'body':
        case 'body-work':
        case 'body-end':
          if (event.ev === 'body') {
            const call = byId.get(event.call);
            if (call) call.ran = true;
          }
          lastActivity.set(event.call, event.t);
          break;
        case 'call-done': {
          const call = byId.get(event.call);
          if (!call) break;
          call.doneAt = event.t;
          call.ok = event.ok;
          call.ran ||= event.ran;
          if (!event.ok) call.error = event.error ?? 'Error';
          for (const hold of held.get(event.call)?.values() ?? []) {
            if (event.ok) hold.completed = true;
            else hold.error = call.error;
          }
          break;
        }
      }
    }
    // Whatever was open when the process died lasted until its death (its session outlived it).
    for (const ofCall of held.values()) {
      for (const hold of ofCall.values()) {
        if (hold.endKind !== 'open') continue;
        hold.end = endOfLife;
        hold.endKind = death?.killed ? 'killed' : 'open';
      }
    }
  }
  holds.sort((a, b) => a.acquiredAt - b.acquiredAt);
  return { calls, holds };
}
