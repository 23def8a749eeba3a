/**
 * The rule of the oversize-checkpoint fault (issue 14, T1; invariant 9), and a figure for the member
 * with server id 255 (S1).
 *
 * Oversize: every oversized checkpoint attempt must settle, refused with `code` ZK_RECORD_TOO_LARGE
 * (the library refuses it before sending), and must not cost its worker the session or the lease:
 * within one session timeout after the attempt, that incarnation logs no session state `suspended`,
 * `lost` or `expired`, no new session id, and no `lost` for the section's lock, unless another fault
 * explains it (a server fault, or a fault of that same incarnation, that began before the window
 * ended and ended less than a session timeout before it began). The driver injects nothing else in
 * that window, so the exception is for aftermaths only.
 */
import type { CheckFigures, CheckInput, Violations } from './checker.js';
import type { WorkerEvent } from './event-log.js';
import type { Reconstruction } from './holds.js';

const TOO_LARGE = 'ZK_RECORD_TOO_LARGE';
const LOSS_STATES = new Set(['suspended', 'lost', 'expired']);

export function checkOversize(run: Reconstruction, input: CheckInput, violations: Violations, figures: CheckFigures, at: (t: number) => string): void {
  const windowNs = input.sessionTimeoutMs * 1e6;
  const faults = input.driver.flatMap((event) => (event.ev === 'fault' && event.kind !== 'oversize-checkpoint' ? [event] : []));
  for (const events of run.byIncarnation.values()) {
    events.forEach((attempt, index) => {
      if (attempt.ev !== 'oversize') return;
      figures.oversizeAttempts++;
      const who = `w${attempt.w}.${attempt.inc} token ${attempt.token}: the oversized checkpoint at ${at(attempt.t)}`;
      const later = events.slice(index + 1);
      const result = later.find((event) => event.ev === 'oversize-result' && event.token === attempt.token);
      if (result?.ev !== 'oversize-result') return void violations.oversize.push(`${who} never settled`);
      if (result.accepted) return void violations.oversize.push(`${who} was accepted (no size bound)`);
      if (result.code !== TOO_LARGE) return void violations.oversize.push(`${who} failed with ${result.error ?? '?'} (code ${result.code ?? 'none'}), not ${TOO_LARGE}`);
      figures.oversizeRefused++;

      const end = attempt.t + windowNs;
      const explained = faults.some(
        (fault) => (fault.w === undefined || (fault.w === attempt.w && fault.inc === attempt.inc)) && fault.start < end && fault.end + windowNs > attempt.t,
      );
      if (explained) return;
      const sessionBefore = lastSessionId(events.slice(0, index));
      const loss = later.find(
        (event) =>
          event.t <= end &&
          ((event.ev === 'session' && (LOSS_STATES.has(event.state) || (event.sessionId !== undefined && sessionBefore !== undefined && event.sessionId !== sessionBefore))) ||
            (event.ev === 'lost' && event.token === attempt.token)),
      );
      if (loss) violations.oversize.push(`${who} was refused, but then ${describeLoss(loss)} at ${at(loss.t)}`);
    });
  }
}

function lastSessionId(events: readonly WorkerEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if ((event.ev === 'session' || event.ev === 'ready') && event.sessionId) return event.sessionId;
  }
  return undefined;
}

function describeLoss(event: WorkerEvent): string {
  if (event.ev === 'lost') return `its lease was lost (${event.reason})`;
  if (event.ev === 'session') return `its session went ${event.state}${event.sessionId ? ` (0x${event.sessionId})` : ''}`;
  return event.ev;
}

/** Distinct sessions created by server 255: their ids start with `ff` (the server id is the top byte). */
export function sessionsOfServer255(workers: readonly WorkerEvent[]): number {
  const ids = new Set<string>();
  for (const event of workers) {
    if ((event.ev === 'session' || event.ev === 'ready') && event.sessionId && /^(0x)?ff/i.test(event.sessionId.padStart(16, '0'))) ids.add(event.sessionId);
  }
  return ids.size;
}
