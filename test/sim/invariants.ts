/**
 * The invariants a simulation checks, each defined next to its check. The workload reports what
 * its processes do (grants, sections, repairs, leadership); `checkStep` runs after every step of
 * the scheduler. A broken invariant is recorded (with the virtual time), never thrown: the run
 * goes on so that the trace shows what followed.
 */

export interface Violation {
  readonly rule: string;
  readonly at: number;
  readonly message: string;
}

/** A lease as the checker follows it: `isHeld` is the lease's own synchronous answer. */
export interface WatchedLease {
  readonly process: string;
  readonly token: bigint;
  readonly isHeld: () => boolean;
  /**
   * A plain lock's lease (the locks whose holders are asked to let go): its queue node and the
   * session that owns it, and when its call began (see `revocationFailed`).
   */
  readonly node?: { readonly path: string; readonly sessionId: string; readonly callStartedAt: number };
}

/**
 * One request to let go (`requestRelease` of a lock, `requestStepDown` of the election), from
 * the moment it was sent: whom it asked once answered, or that it failed (its mark may have landed
 * anyway, on a node it never named).
 */
export interface RevocationRequest {
  /** The lock's name, or `election:<name>`. */
  readonly target: string;
  readonly process: string;
  readonly sentAt: number;
  /** When it settled (answered or failed); undefined while in flight. */
  settledAt?: number;
  /** Whom it marked; null when it marked nobody (`requested: false`). */
  asked?: { readonly node: string; readonly sessionId: string; readonly identity: string | null } | null;
  failed?: boolean;
}

/** A guarded section's life, keyed by `${lock}#${token}` (locks) or `${election}#${token}#${n}` (leader sections). */
interface Section {
  readonly scope: string;
  readonly token: bigint;
  /** Its `fn` began; false for a call that may have marked the section and failed before `fn` (see `sectionAttempted`). */
  readonly begun: boolean;
  /** `fn` returned normally: its work is whole, whether or not completion was recorded. */
  finished: boolean;
  /** The whole call succeeded: completion was recorded (the ready znode says so). */
  succeeded: boolean;
  /** A successor's recovery repaired it and its take-over was recorded. */
  repaired: boolean;
  /** A successor's recovery ran, and its take-over may have been recorded (see `repairMaybeRecorded`). */
  maybeRepaired?: boolean;
}

/** How much revocation a schedule saw (the runner sums them): requests sent and what they marked, and the holders that heard. */
export interface RevocationCounts {
  releaseRequests: number;
  /** Release requests answered with a holder marked. */
  holdersAsked: number;
  /** `releaseRequested` aborts (a holder that reads it was told). */
  releaseAborts: number;
  stepDownRequests: number;
  /** Step-down requests answered with a leader marked. */
  leadersAsked: number;
  stepDowns: number;
}

export class Invariants {
  readonly violations: Violation[] = [];
  readonly revocations: RevocationCounts = { releaseRequests: 0, holdersAsked: 0, releaseAborts: 0, stepDownRequests: 0, leadersAsked: 0, stepDowns: 0 };
  private readonly leases = new Map<string, Set<WatchedLease>>();
  private readonly lastGrant = new Map<string, bigint>();
  /** The leases of each read/write lock, with their mode. */
  private readonly shared = new Map<string, Map<WatchedLease, 'read' | 'write'>>();
  /** Per read/write lock: the highest token granted so far, and the last writer's. */
  private readonly rwTokens = new Map<string, { highest: bigint; writer: bigint | undefined }>();
  /** The leases of each semaphore, with the permits each holds, and the semaphore's capacity. */
  private readonly permitLeases = new Map<string, { permits: number; held: Map<WatchedLease, number> }>();
  private readonly sections = new Map<string, Section[]>();
  /** Processes whose `isLeader` the checker reads after every step. */
  private readonly leaders = new Map<string, { isLeader: () => boolean; alive: () => boolean; era: number }>();
  private lastLeaderToken: bigint | undefined;
  /** Counts the wipes of the ensemble (see `newEra`). */
  private era = 0;
  /** Release and step-down requests sent (of this era, and any still in flight). */
  private requests: RevocationRequest[] = [];
  /** Election nodes whose leader was asked to step down: each must go (see `askedLeadersRemaining`). */
  private askedLeaders: { readonly node: string; readonly sessionId: string; readonly at: number }[] = [];
  /** The owner (hex session id) of a node in the leader's tree, if it exists; set by the schedule. */
  private nodeOwner: ((path: string) => string | undefined) | undefined;

  constructor(
    private readonly now: () => number,
    private readonly trace?: (text: string) => void,
  ) {}

  /** Lets the checks read the ensemble's (the leader's) tree. */
  readTree(nodeOwner: (path: string) => string | undefined): void {
    this.nodeOwner = nodeOwner;
  }

  violate(rule: string, message: string): void {
    this.violations.push({ rule, at: this.now(), message });
    this.trace?.(`!! VIOLATION ${rule}: ${message}`);
  }

  // ---------------------------------------------------------------- locks

  /**
   * **Fencing order.** A lock's fencing tokens strictly increase in the order its holders start
   * (a holder starts when its call's `fn`, or its recovery, first runs).
   *
   * **Exclusive holding** (checked here and after every step, see `checkStep`): at no step do two
   * leases of one lock both answer `isHeld` true. A lease counts as held from its grant until
   * its `signal` aborts or `isHeld` turns false (which the library guarantees happens before the
   * server could expire its session: a paused process's lease answers false as soon as the
   * pause could have cost it the session, even before the process runs again).
   */
  granted(lock: string, lease: WatchedLease): void {
    const last = this.lastGrant.get(lock);
    if (last !== undefined && lease.token <= last) this.violate('fencing-order', `${lock}: ${lease.process} was granted token ${lease.token} after token ${last}`);
    this.lastGrant.set(lock, lease.token);
    let held = this.leases.get(lock);
    if (!held) this.leases.set(lock, (held = new Set()));
    held.add(lease);
    this.checkExclusive(lock);
  }

  released(lock: string, lease: WatchedLease): void {
    this.leases.get(lock)?.delete(lease);
  }

  /** A crashed process believes nothing any more. */
  forgetProcess(process: string): void {
    for (const held of this.leases.values()) for (const lease of held) if (lease.process === process) held.delete(lease);
    for (const held of this.shared.values()) for (const lease of held.keys()) if (lease.process === process) held.delete(lease);
    for (const { held } of this.permitLeases.values()) for (const lease of held.keys()) if (lease.process === process) held.delete(lease);
    this.leaders.delete(process);
    // Its requests in flight may still land (what reached the server before the crash): failed now.
    for (const request of this.requests) if (request.process === process && request.settledAt === undefined) this.revocationFailed(request);
  }

  private checkExclusive(lock: string): void {
    const holders = [...(this.leases.get(lock) ?? [])].filter((lease) => lease.isHeld());
    if (holders.length > 1) {
      const who = holders.map((l) => `${l.process} (token ${l.token})`).join(' and ');
      this.violate('exclusive-holding', `${lock}: ${who} both hold it`);
      // One report per overlap: forget the older ones.
      for (const lease of holders.slice(0, -1)) this.leases.get(lock)!.delete(lease);
    }
  }

  /**
   * **Re-entry within the lease.** A re-entrant call's `fn` starts only while the lease it
   * re-enters is held and its outer call has not ended (`at: 'start'`), and the outer call does not
   * end before it (`at: 'end'`: the lease is pinned). The lease may be lost while it runs, like
   * any holder's.
   */
  reentered(lock: string, process: string, lease: WatchedLease, outerEnded: boolean, at: 'start' | 'end'): void {
    if (outerEnded) this.violate('reentry-outlives-lease', `${lock}: a re-entrant call of ${process} ${at === 'start' ? 'started' : 'was still running'} after its outer call had ended`);
    else if (at === 'start' && !lease.isHeld()) this.violate('reentry-outlives-lease', `${lock}: a re-entrant call of ${process} started while its lease was not held`);
  }

  /**
   * **Bounded release.** Once a locked call's `fn` has ended, the call does not wait for an
   * unreachable ensemble past the moment its session counts as lost: it settles within a second
   * of the process's running time (pauses excluded) of the first loss of its session after `fn`
   * ended (or of `fn`'s end, when the session was lost already). The node then goes with the
   * session, or is deleted in the background when the session comes back. (`lostAt` undefined: the
   * session never counted as lost meanwhile, and the call waited for a reachable ensemble.)
   */
  callSettled(lock: string, process: string, lostAt: number | undefined, runningMsSinceLoss: number): void {
    if (lostAt !== undefined && runningMsSinceLoss > 1000) {
      this.violate('unbounded-release', `${lock}: the call of ${process} settled ${Math.round(runningMsSinceLoss)} ms (running time) after its session counted as lost at ${(lostAt / 1000).toFixed(3)} s`);
    }
  }

  /**
   * **Persistent watches outlive reconnections.** The dashboard's root watch (a persistent
   * recursive watch, set once per session) reports every node created below the root while it
   * stands, also after the session's reconnections (the client sets it again with setWatches): a
   * marker the process created, answered on that session without the connection dropping since
   * before the create, was reported by the time its reply came (ZooKeeper sends the event first).
   */
  watchReported(process: string, path: string, reported: boolean): void {
    if (!reported) this.violate('root-watch-missed', `${process}: its root watch did not report ${path}, created and answered on the session the watch stands on`);
  }

  // ---------------------------------------------------------------- read/write locks

  /**
   * **Read/write exclusion** (checked here and after every step, see `checkStep`): at no step does
   * a writer's lease answer `isHeld` together with any other lease of the same read/write lock,
   * reader or writer; readers share. Held means as for a lock (`granted`): from the grant until
   * the lease's `signal` aborts or `isHeld` turns false (a paused process's lease answers false as
   * soon as the pause could have cost it the session).
   *
   * **Writer fencing order.** In the order holders start, a writer's token is greater than the
   * token of every holder before it (reader or writer) and less than the token of every holder
   * after it. Readers are not ordered among themselves: concurrent readers may share a token.
   */
  readWriteGranted(lock: string, mode: 'read' | 'write', lease: WatchedLease): void {
    const tokens = this.rwTokens.get(lock);
    if (tokens) {
      if (mode === 'write' && lease.token <= tokens.highest) {
        this.violate('rw-fencing-order', `${lock}: ${lease.process} was granted the write lock with token ${lease.token} after a holder with token ${tokens.highest}`);
      } else if (mode === 'read' && tokens.writer !== undefined && lease.token <= tokens.writer) {
        this.violate('rw-fencing-order', `${lock}: ${lease.process} was granted the read lock with token ${lease.token} after a writer with token ${tokens.writer}`);
      }
    }
    const highest = tokens && tokens.highest > lease.token ? tokens.highest : lease.token;
    this.rwTokens.set(lock, { highest, writer: mode === 'write' ? lease.token : tokens?.writer });
    let held = this.shared.get(lock);
    if (!held) this.shared.set(lock, (held = new Map()));
    held.set(lease, mode);
    this.checkReadWrite(lock);
  }

  readWriteReleased(lock: string, lease: WatchedLease): void {
    this.shared.get(lock)?.delete(lease);
  }

  private checkReadWrite(lock: string): void {
    const all = this.shared.get(lock);
    if (!all) return;
    const holders = [...all].filter(([lease]) => lease.isHeld());
    if (holders.length > 1 && holders.some(([, mode]) => mode === 'write')) {
      const who = holders.map(([l, mode]) => `${l.process} (${mode}, token ${l.token})`).join(' and ');
      this.violate('rw-exclusion', `${lock}: ${who} hold it at once, a writer among them`);
      // One report per overlap: forget the older ones.
      for (const [lease] of holders.slice(0, -1)) all.delete(lease);
    }
  }

  // ---------------------------------------------------------------- semaphores

  /**
   * **Permits** (checked here and after every step): at no step do the leases of a semaphore that
   * answer `isHeld` hold more than its `permits` together (each holds the `take` it asked for, all
   * at once). Held as for a lock (see `granted`).
   */
  permitsGranted(semaphore: string, permits: number, take: number, lease: WatchedLease): void {
    let entry = this.permitLeases.get(semaphore);
    if (!entry) this.permitLeases.set(semaphore, (entry = { permits, held: new Map() }));
    entry.held.set(lease, take);
    this.checkPermits(semaphore);
  }

  permitsReleased(semaphore: string, lease: WatchedLease): void {
    this.permitLeases.get(semaphore)?.held.delete(lease);
  }

  private checkPermits(semaphore: string): void {
    const entry = this.permitLeases.get(semaphore);
    if (!entry) return;
    const holders = [...entry.held].filter(([lease]) => lease.isHeld());
    const taken = holders.reduce((sum, [, take]) => sum + take, 0);
    if (taken > entry.permits) {
      const who = holders.map(([l, take]) => `${l.process} (${take}, token ${l.token})`).join(', ');
      this.violate('permits-exceeded', `${semaphore}: ${taken} of its ${entry.permits} permits held at once by ${who}`);
      for (const [lease] of holders.slice(0, -1)) entry.held.delete(lease);
    }
  }

  // ---------------------------------------------------------------- guarded sections (locks and leaders)

  /**
   * **Repair.** Every interrupted guarded section (its `fn` began but did not return) is repaired
   * by the successor that next begins a section of the same lock or election, before that
   * successor's own work: when a section begins, no earlier section of its scope may still be
   * interrupted and unrepaired. A repair counts once the successor's take-over was recorded
   * (its own section began, or for leaders, it reported leadership).
   *
   * **Exactly once, and only what was interrupted.** A section is repaired at most once; a section
   * whose call succeeded (its completion was recorded) is never repaired; a repaired section's
   * call never succeeds afterwards. (A section whose `fn` never began, because the holder lost
   * its lock between marking the section and starting it, may be repaired: nobody can tell.)
   */
  sectionBegan(scope: string, token: bigint, process: string, attempt?: Section): Section {
    const list = this.sections.get(scope) ?? [];
    this.sections.set(scope, list);
    if (attempt) this.sectionWithdrawn(attempt);
    // Also an earlier section of the same token: a leader whose leadership was suspended mid-section
    // and came back repairs its own section before its next one.
    for (const earlier of list) {
      if (earlier.begun && !earlier.finished && !earlier.repaired && !earlier.maybeRepaired) {
        this.violate('unrepaired-section', `${scope}: ${process} (token ${token}) began a section while the section of token ${earlier.token} was interrupted and not repaired`);
        earlier.repaired = true; // report once
      }
    }
    const section: Section = { scope, token, begun: true, finished: false, succeeded: false, repaired: false };
    list.push(section);
    return section;
  }

  /**
   * A call that may mark a section under `token` (a leader's `runAsLeader`) starts: until its `fn`
   * begins (`sectionBegan` with this attempt) or it turns out it never marked (`sectionWithdrawn`),
   * the ready znode may hold its mark (a lost reply, a crash after the write), so a repair of
   * `token` is legitimate whatever became of the token's earlier sections.
   */
  sectionAttempted(scope: string, token: bigint): Section {
    const list = this.sections.get(scope) ?? [];
    this.sections.set(scope, list);
    const attempt: Section = { scope, token, begun: false, finished: false, succeeded: false, repaired: false };
    list.push(attempt);
    return attempt;
  }

  sectionWithdrawn(attempt: Section): void {
    const list = this.sections.get(attempt.scope);
    const at = list?.indexOf(attempt) ?? -1;
    if (at >= 0) list!.splice(at, 1);
  }

  sectionFinished(section: Section): void {
    section.finished = true;
  }

  sectionSucceeded(section: Section): void {
    if (section.repaired) this.violate('repaired-then-completed', `${section.scope}: the call of token ${section.token} succeeded although a successor had repaired its section`);
    section.succeeded = true;
  }

  /** A successor's repair of `token` was recorded (see `sectionBegan`). */
  repairRecorded(scope: string, token: bigint, process: string): void {
    // The ready znode holds one mark per token: a section of a token is marked only after any
    // earlier interrupted section of it was repaired, so one repair covers whatever the token left.
    const sections = (this.sections.get(scope) ?? []).filter((s) => s.token === token);
    if (sections.length === 0) return; // marked but never begun: allowed (see above)
    const open = sections.filter((s) => !s.repaired && !s.succeeded);
    if (open.length === 0) {
      if (sections.some((s) => s.repaired)) this.violate('double-repair', `${scope}: ${process} repaired the section of token ${token} a second time`);
      else this.violate('spurious-repair', `${scope}: ${process} repaired the section of token ${token}, whose call had succeeded`);
      return;
    }
    for (const section of open) section.repaired = true;
  }

  /**
   * A successor's recovery of `token` ran: its take-over write goes out next, and may be recorded
   * (a write can be applied and its reply lost, or its process stopped before it learns), or not.
   * From then on the next successor may find the section repaired, or repair it again: both are
   * right, so neither is reported. (A successor that skips the repair of a section nobody tried to
   * repair is still caught.)
   */
  repairMaybeRecorded(scope: string, token: bigint): void {
    for (const section of this.sections.get(scope) ?? []) if (section.token === token && !section.repaired) section.maybeRepaired = true;
  }

  /**
   * Every server restarted with an empty data directory: every session, queue node and ready
   * znode is gone at once and zxids start over, so no fencing token or repair can relate the new
   * era to the old one, and a holder of the old era may still believe it holds (until its loss
   * clock runs out) while a new session is granted the lock on the empty tree: data loss no
   * client can see coming (the chaos checker's "eras"). Every invariant holds within an era.
   */
  newEra(): void {
    this.era++;
    this.leases.clear();
    this.lastGrant.clear();
    this.shared.clear();
    this.rwTokens.clear();
    this.permitLeases.clear();
    this.sections.clear();
    this.lastLeaderToken = undefined;
    // Paths and session ids start over: only a request still in flight can mark a node of the new era.
    this.requests = this.requests.filter((request) => request.settledAt === undefined);
    this.askedLeaders = [];
  }

  // ---------------------------------------------------------------- revocation (release and step-down requests)

  /** A request to let go of `target` (a lock's name, or `election:<name>`) was sent by `process`. */
  revocationSent(target: string, process: string): RevocationRequest {
    const request: RevocationRequest = { target, process, sentAt: this.now() };
    this.requests.push(request);
    if (target.startsWith('election:')) this.revocations.stepDownRequests++;
    else this.revocations.releaseRequests++;
    return request;
  }

  /** The request was answered: it marked `asked`'s node, or (null) nobody's. */
  revocationAnswered(request: RevocationRequest, asked: NonNullable<RevocationRequest['asked']> | null): void {
    if (request.settledAt !== undefined) return; // its process crashed meanwhile: counted as failed
    request.settledAt = this.now();
    request.asked = asked;
    if (!asked) return;
    if (request.target.startsWith('election:')) {
      this.revocations.leadersAsked++;
      this.askedLeaders.push({ node: asked.node, sessionId: asked.sessionId, at: this.now() });
    } else {
      this.revocations.holdersAsked++;
    }
  }

  /** The request failed (or its process died with it in flight): its mark may have landed, on a node it never named. */
  revocationFailed(request: RevocationRequest): void {
    if (request.settledAt !== undefined) return;
    request.settledAt = this.now();
    request.failed = true;
  }

  /**
   * **Asked before told.** A lease's `releaseRequested` aborts only once a request targeted its
   * holder: its reason is a `ReleaseRequestedError` that names the lease's own node, and a request
   * to release that lock was sent before the abort that marked that very node (same path, same
   * session), or is still unanswered, or failed after the lease's call began (a failed request's
   * mark may have landed on whichever node headed the queue then, which its getData saw, so one
   * made before it failed). `reasonNode`: the node the abort's reason names (undefined: the reason
   * is not a `ReleaseRequestedError`).
   */
  releaseRequestedAborted(lock: string, lease: WatchedLease, reasonNode: string | undefined): void {
    const node = lease.node;
    if (!node) return;
    this.revocations.releaseAborts++;
    const who = `${lease.process} (token ${lease.token}, ${node.path})`;
    if (reasonNode !== node.path) {
      this.violate('unrequested-release', `${lock}: the releaseRequested of ${who} aborted with a reason that names ${reasonNode ?? 'no node'}`);
      return;
    }
    const asked = this.requests.some(
      (r) =>
        r.target === lock &&
        (r.settledAt === undefined || (r.failed && r.settledAt >= node.callStartedAt) || (r.asked?.node === node.path && r.asked.sessionId === node.sessionId)),
    );
    if (!asked) this.violate('unrequested-release', `${lock}: the releaseRequested of ${who} aborted, but no request to release ${lock} marked its node`);
  }

  /**
   * **Held until its call ends** (the holder's side of "never released on its behalf"): a plain
   * lock's lease still answers `isHeld` when its call's `fn` ends, unless its session counted as
   * lost (or in doubt) meanwhile, or its process began shutting down (`excused`). Nothing ends a
   * holding on request: a holder that did not read `releaseRequested` keeps the lock for as long as
   * its call runs, and one that read it ends its call itself.
   */
  callEnded(lock: string, lease: WatchedLease, excused: boolean): void {
    if (excused || !this.leases.get(lock)?.has(lease) || lease.isHeld()) return;
    this.violate('released-on-behalf', `${lock}: the lease of ${lease.process} (token ${lease.token}) was no longer held when its call's fn ended, though its session was never lost`);
  }

  /**
   * **Never released on the holder's behalf** (checked after every step, for plain locks): while a
   * lease answers `isHeld`, its queue node exists in the leader's tree, owned by its session. A
   * request only marks the node; nothing but the holder's own release or the end of its session
   * (and `isHeld` answers false before the server could end it) removes it.
   */
  private checkNodeKept(lock: string): void {
    const nodeOwner = this.nodeOwner;
    const held = this.leases.get(lock);
    if (!nodeOwner || !held) return;
    for (const lease of held) {
      if (!lease.node || !lease.isHeld()) continue;
      const owner = nodeOwner(lease.node.path);
      if (owner === lease.node.sessionId) continue;
      this.violate('released-on-behalf', `${lock}: ${lease.process} (token ${lease.token}) holds, but its node ${lease.node.path} ${owner === undefined ? 'is gone' : `belongs to session 0x${owner}`}`);
      held.delete(lease); // report once
    }
  }

  /**
   * **Step-down only when asked.** A leader steps down (`leadership.step-down`) only once a
   * step-down request of its election was sent that marked its node (the node carries its
   * identity), or is still unanswered, or failed.
   */
  steppedDown(election: string, process: string, token: bigint): void {
    this.revocations.stepDowns++;
    const asked = this.requests.some((r) => r.target === `election:${election}` && (r.settledAt === undefined || r.failed || r.asked?.identity === process));
    if (!asked) this.violate('unrequested-step-down', `${election}: ${process} stepped down (token ${token}) though no step-down request marked its node`);
  }

  /**
   * **Step-down liveness** (checked once the faults are over, see `simulate`): the node of every
   * leader that was asked to step down goes within a bound: the leader stepped down and deleted it,
   * or its session ended. Returns those still in the leader's tree, owned by the same session.
   */
  askedLeadersRemaining(): readonly { readonly node: string; readonly sessionId: string; readonly at: number }[] {
    const nodeOwner = this.nodeOwner;
    if (!nodeOwner) return [];
    return this.askedLeaders.filter((asked) => nodeOwner(asked.node) === asked.sessionId);
  }

  // ---------------------------------------------------------------- leadership

  /**
   * **Leaders never overlap** (checked after every step): at most one live process answers
   * `isLeader` true. **Leadership tokens** strictly increase from one leadership to the next.
   */
  watchLeader(process: string, isLeader: () => boolean, alive: () => boolean): void {
    this.leaders.set(process, { isLeader, alive, era: this.era });
  }

  leadershipGained(process: string, token: bigint | undefined): void {
    const leader = this.leaders.get(process);
    if (leader) leader.era = this.era;
    if (token === undefined) return;
    if (this.lastLeaderToken !== undefined && token < this.lastLeaderToken) {
      this.violate('leader-token-order', `${process} leads with token ${token} after a leadership with token ${this.lastLeaderToken}`);
    }
    this.lastLeaderToken = token;
  }

  /** After every step. */
  checkStep(): void {
    for (const lock of this.leases.keys()) {
      this.checkExclusive(lock);
      this.checkNodeKept(lock);
    }
    for (const lock of this.shared.keys()) this.checkReadWrite(lock);
    for (const semaphore of this.permitLeases.keys()) this.checkPermits(semaphore);
    let leaders: string[] | undefined;
    for (const [process, leader] of this.leaders) {
      // A leader of an era before a wipe may still believe it leads: not comparable (see `newEra`).
      if (leader.era === this.era && leader.alive() && leader.isLeader()) (leaders ??= []).push(process);
    }
    if (leaders && leaders.length > 1) {
      this.violate('leaders-overlap', `${leaders.join(' and ')} lead at once`);
      for (const process of leaders.slice(0, -1)) this.leaders.delete(process);
    }
  }
}
