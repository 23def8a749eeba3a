/**
 * Cooperative revocation in the event logs (chaos-worker.ts): the release and step-down requests
 * the workers sent, every lock tenure of every workload (one per `acquired` line: the counter's
 * sections and sets, the locks only sets take, read/write locks, semaphores) with what its holder
 * did about release requests, the step-downs the leaders reported, and each incarnation's
 * session lines.
 *
 * A tenure's times are its process's own lines: its want (the section's `want`, the call's `call`),
 * its grant, its body (`enter`..`exit` for a section of its token, `body`..`body-end` of its call),
 * its `lost` and `released` lines, and the end of its call (`done`, `call-done`). A tenure reads
 * `releaseRequested` when a `release-watch` line names its lock and token (and call), and saw a
 * request when a `release-seen` line does.
 */
import { COUNTER_KEY } from './chaos-names.js';
import type { EarlyEndStep, RequestWhat, WorkerEvent } from './event-log.js';
import { incKey, type IncarnationKey, type Reconstruction } from './holds.js';

export interface RevocationRequest {
  readonly w: number;
  readonly inc: number;
  readonly req: number;
  readonly what: RequestWhat;
  /** The lock's key (`lockKey`) or the election's (`elections/<name>`). */
  readonly target: string;
  /** Its `request` line: logged before it was sent. */
  readonly start: number;
  /** Its reply (`request-done`), or its process's death (or last line) when none came. */
  end: number;
  /** Whom it asked (`requested`), why nobody (`reason`), or the error it threw; nothing when no reply came. */
  requested?: boolean;
  node?: string;
  identity?: string | null;
  sessionId?: string;
  repeated?: boolean;
  reason?: string;
  error?: string;
}

/** No reply came, or an error: a mark may have landed on whichever node headed the queue then, or none. */
export const replyUnknown = (request: RevocationRequest): boolean => request.requested === undefined;

export interface Tenure {
  readonly w: number;
  readonly inc: number;
  /** `lockKey` of the lock (the counter's when the line names none). */
  readonly lock: string;
  readonly token: string;
  /** The workload call it was granted to (undefined: a `@WithLock` section). */
  readonly call?: number;
  readonly wantAt: number;
  readonly acquiredAt: number;
  /** Its queue node, as its body's first line (or its `release-watch` line) gives it. */
  node?: string;
  bodyStartAt?: number;
  bodyEndAt?: number;
  /** Its call returned or threw. */
  doneAt?: number;
  lostAt?: number;
  lostReason?: string;
  releasedAt?: number;
  /** It read `releaseRequested` (its node and session, from the lease). */
  watch?: { at: number; node: string; sessionId: string };
  /** Its `releaseRequested` aborted. */
  seen?: { at: number; node: string; sessionId: string; error: string };
  earlyEnd?: EarlyEndStep;
}

/** A leader's `step-down` line: it was asked, while its node headed the election under `token`. */
export interface StepDown {
  readonly w: number;
  readonly inc: number;
  readonly at: number;
  readonly token: string;
  readonly sessionId?: string;
}

export interface SessionLine {
  readonly at: number;
  readonly state: string;
  readonly sessionId?: string;
}

export interface RevocationRun {
  /** In order of their `request` lines. */
  readonly requests: RevocationRequest[];
  /** In grant order. */
  readonly tenures: Tenure[];
  readonly stepDowns: StepDown[];
  readonly sessions: Map<IncarnationKey, SessionLine[]>;
}

export function reconstructRevocation(run: Reconstruction): RevocationRun {
  const requests: RevocationRequest[] = [];
  const tenures: Tenure[] = [];
  const stepDowns: StepDown[] = [];
  const sessions = new Map<IncarnationKey, SessionLine[]>();
  for (const [key, events] of run.byIncarnation) {
    const death = run.deaths.get(key);
    const endOfLife = death ? death.at : (events.at(-1)?.t ?? 0);
    const lines: SessionLine[] = [];
    sessions.set(key, lines);
    const byReq = new Map<number, RevocationRequest>();
    const callWant = new Map<number, number>();
    let sectionWant: number | undefined;
    /** The `@WithLock` section's tenure whose call has not ended. */
    let section: Tenure | undefined;
    /** The tenures of each workload call. */
    const ofCall = new Map<number, Tenure[]>();
    /** The latest tenure of `lock` with `token` (and `call`) in this incarnation. */
    const find = (event: { lock?: string; token?: string; call?: number }): Tenure | undefined => {
      const lock = event.lock ?? COUNTER_KEY;
      for (let i = tenures.length - 1; i >= 0; i--) {
        const tenure = tenures[i]!;
        if (incKey(tenure.w, tenure.inc) !== key) continue;
        if (tenure.lock === lock && tenure.token === event.token && tenure.call === event.call) return tenure;
      }
      return undefined;
    };
    for (const event of events as WorkerEvent[]) {
      switch (event.ev) {
        case 'ready':
          lines.push({ at: event.t, state: 'ready', sessionId: event.sessionId });
          break;
        case 'session':
          lines.push({ at: event.t, state: event.state, sessionId: event.sessionId });
          break;
        case 'want':
          sectionWant = event.t;
          section = undefined;
          break;
        case 'call':
          callWant.set(event.call, event.t);
          break;
        case 'acquired': {
          const tenure: Tenure = {
            w: event.w,
            inc: event.inc,
            lock: event.lock ?? COUNTER_KEY,
            token: event.token,
            ...(event.call !== undefined && { call: event.call }),
            wantAt: (event.call !== undefined ? callWant.get(event.call) : sectionWant) ?? event.t,
            acquiredAt: event.t,
          };
          tenures.push(tenure);
          if (event.call === undefined) section = tenure;
          else ofCall.set(event.call, [...(ofCall.get(event.call) ?? []), tenure]);
          break;
        }
        case 'lost': {
          const tenure = find(event);
          if (tenure && tenure.lostAt === undefined) {
            tenure.lostAt = event.t;
            tenure.lostReason = event.reason;
          }
          break;
        }
        case 'released': {
          const tenure = find(event);
          if (tenure && tenure.releasedAt === undefined) tenure.releasedAt = event.t;
          break;
        }
        case 'enter':
          if (section?.token !== event.token) break;
          section.bodyStartAt ??= event.t;
          section.node ??= event.node;
          break;
        case 'exit':
          if (section?.token === event.token) section.bodyEndAt ??= event.t;
          break;
        case 'done':
          if (section && section.doneAt === undefined) section.doneAt = event.t;
          section = undefined;
          break;
        case 'body':
          for (const tenure of ofCall.get(event.call) ?? []) {
            tenure.bodyStartAt ??= event.t;
            tenure.node ??= event.nodes?.[tenure.lock];
          }
          break;
        case 'body-end':
          for (const tenure of ofCall.get(event.call) ?? []) tenure.bodyEndAt ??= event.t;
          break;
        case 'call-done':
          for (const tenure of ofCall.get(event.call) ?? []) tenure.doneAt ??= event.t;
          break;
        case 'release-watch': {
          const tenure = find(event);
          if (!tenure) break;
          tenure.watch ??= { at: event.t, node: event.node, sessionId: event.sessionId };
          tenure.node ??= event.node;
          break;
        }
        case 'release-seen': {
          const tenure = find(event);
          // A line naming no tenure is kept as one of its own, so that the rule still sees it.
          const target = tenure ?? pushOrphanSeen(tenures, event);
          target.seen ??= { at: event.t, node: event.node, sessionId: event.sessionId, error: event.error };
          break;
        }
        case 'early-end': {
          const tenure = event.token !== undefined ? (section?.token === event.token ? section : undefined) : ofCall.get(event.call!)?.find((t) => t.lock === COUNTER_KEY);
          if (tenure) tenure.earlyEnd ??= event.step;
          break;
        }
        case 'step-down':
          stepDowns.push({ w: event.w, inc: event.inc, at: event.t, token: event.token, ...(event.sessionId !== undefined && { sessionId: event.sessionId }) });
          break;
        case 'request': {
          const request: RevocationRequest = {
            w: event.w,
            inc: event.inc,
            req: event.req,
            what: event.what,
            target: event.target,
            start: event.t,
            end: endOfLife,
          };
          byReq.set(event.req, request);
          requests.push(request);
          break;
        }
        case 'request-done': {
          const request = byReq.get(event.req);
          if (!request) break;
          request.end = event.t;
          if (event.error !== undefined) request.error = event.error;
          else {
            request.requested = event.requested;
            if (event.node !== undefined) request.node = event.node;
            if (event.identity !== undefined) request.identity = event.identity;
            if (event.sessionId !== undefined) request.sessionId = event.sessionId;
            if (event.repeated !== undefined) request.repeated = event.repeated;
            if (event.reason !== undefined) request.reason = event.reason;
          }
          break;
        }
      }
    }
  }
  tenures.sort((a, b) => a.acquiredAt - b.acquiredAt);
  requests.sort((a, b) => a.start - b.start);
  stepDowns.sort((a, b) => a.at - b.at);
  return { requests, tenures, stepDowns, sessions };
}

/** A `release-seen` line of no known tenure (no grant logged): a tenure of its own, granted then. */
function pushOrphanSeen(tenures: Tenure[], event: Extract<WorkerEvent, { ev: 'release-seen' }>): Tenure {
  const tenure: Tenure = { w: event.w, inc: event.inc, lock: event.lock, token: event.token, ...(event.call !== undefined && { call: event.call }), wantAt: event.t, acquiredAt: event.t };
  tenures.push(tenure);
  return tenure;
}
