/**
 * The mutation check of the simulation (issue 15): known defects, each re-introduced on its own, that
 * the simulation runner must find (`npm run test:sim -- --mutant NAME`). The first four are the
 * defects of the trust issue (issue 14: S1, S4, L1, S2), as they were before their fixes; the others
 * are classic mistakes of ZooKeeper lock and election recipes.
 *
 * A mutant patches the compiled JavaScript (a copy of build/src, see `prepareMutant`), so that the
 * production source never carries a defect. Each `find` must occur exactly once in its file: a
 * refactor that moves the code makes the mutant fail to apply instead of silently testing nothing.
 */
import type { FaultKind } from './schedule.js';

export interface MutantPatch {
  /** Path of the compiled file under build/src, e.g. `recipes/queue-node.js`. */
  readonly file: string;
  readonly find: string;
  readonly replace: string;
}

export interface Mutant {
  /** Kebab-case, as given to `--mutant`. */
  readonly name: string;
  /** What the mutant breaks, and which invariant of the simulation should catch it. */
  readonly defect: string;
  readonly patches: readonly MutantPatch[];
  /**
   * Why no schedule can catch this one, when none can: the defect is shielded by another guard
   * that still holds. The mutation check reports it as surviving without failing; remove the
   * reason as soon as a schedule (or a new fault) reaches it.
   */
  readonly survives?: string;
  /**
   * The faults its defect needs, when it needs a rare meeting of a few: the search injects only
   * those (every kind otherwise). Without the others, schedules that bring the needed ones
   * together come often instead of once in a thousand, whatever else the simulation's code changes.
   */
  readonly faults?: readonly FaultKind[];
  /** A mutant of the partition recipe: every schedule of its search runs the partition workload with this many partitions. */
  readonly partitions?: number;
}

/** Where `join` decides on a succession grant after a wake; the no-relist mutant grants just before it. */
const SUCCESSION_GRANT = 'const grant = departed ? standby?.grant() : undefined;';

export const MUTANTS: readonly Mutant[] = [
  {
    // As before c275ed6: TTL and container markers were taken for "no session".
    name: 'ff-owner-skipped',
    defect:
      'A queue node whose ephemeralOwner starts with ff (any session of a server with id 255) or is 8000000000000000 is taken for a persistent look-alike and skipped, so a waiter behind such a holder is granted too: no two holders of a lock (and leaders never overlap).',
    patches: [
      {
        file: 'recipes/queue/queue-node.js',
        find: "return ephemeralOwner !== '0';",
        replace: 'return !/^(0|8000000000000000|ff[0-9a-f]{14})$/.test(ephemeralOwner);',
      },
    ],
  },
  {
    // As before 7f349b9.
    name: 'adopt-without-sync',
    defect:
      'After a lost create reply, the listing that looks for our node is not preceded by sync(dir): on a lagging server it misses the create, which lands later, and join makes a second node that waits behind the first, a live ephemeral of its own session, for good: every acquisition (and election) completes once the holder ahead releases.',
    patches: [{ file: 'recipes/queue/lost-create.js', find: 'await this.session.sync(dir);', replace: '' }],
    // A lost create reply, then a listing on a lagging member: 593 schedules of every fault in the
    // last CI run, none in 1184 after unrelated changes; with these two alone, 64.
    faults: ['lost-reply', 'lag'],
  },
  {
    // As before 7f349b9: leave retried the delete until it went through or the session was replaced.
    name: 'unbounded-release-wait',
    defect:
      'Leaving the queue (release, shutdown, a give-up) waits for the delete to go through, however long the ensemble stays unreachable, instead of resolving once the session is lost: every release and close resolves within the session timeout.',
    patches: [
      {
        file: 'recipes/queue/node-removal.js',
        find: 'return this.whileSessionLives(this.deleteThroughOutages(path, sessionId, deletion), sessionId);',
        replace: 'return this.deleteThroughOutages(path, sessionId, deletion);',
      },
    ],
  },
  {
    // As before 807d970: `if (reentered?.lease.isHeld) return fn(reentered);`, else a fresh acquisition.
    name: 'swallowed-reentry',
    defect:
      'A re-entrant withLock neither pins the lease nor is refused once it is released: a forked re-entry keeps running as the holder after the locked call released the lock, and a late one silently queues as a fresh acquisition instead of failing with LockLostError: no two holders of a lock, and no code runs as the holder of a released lease.',
    patches: [
      {
        file: 'services/lock.service.js',
        find: 'const frame = findLockFrame(this, name);',
        replace: 'const found = findLockFrame(this, name); if (found && found.lock.lease.isHeld) return fn(found.lock); const frame = undefined;',
      },
    ],
  },
  {
    // Classic: sorting the children by name. kazoo's lock sorts on what follows the lock name
    // ("can't just sort directly: the node names are prefixed by uuids"), Curator's likewise.
    name: 'sequence-as-string',
    defect:
      'The queue is ordered by comparing whole node names as strings, so the random uuid prefix, not the sequence number, decides who heads it, and a newcomer can sort ahead of the holder: no two holders of a lock, leaders never overlap.',
    patches: [
      {
        file: 'recipes/queue/queue-node.js',
        find: 'return (a.sequence - b.sequence) | 0 || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);',
        replace: 'return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;',
      },
    ],
  },
  {
    // Classic: the ZooKeeper lock recipe goes back to getChildren after the watch fires, because the
    // predecessor may have been a waiter that gave up. Only a hand-off (right behind the node that
    // headed the queue at the last look, with the proof that our own node stands) may skip it.
    name: 'no-relist-after-wake',
    defect:
      "A waiter woken by its predecessor's deletion takes itself for the head without listing the queue again, so when that predecessor was a waiter that gave up (timed out, aborted, lost its session) rather than the holder, it is granted while the holder still holds: no two holders of a lock, leaders never overlap.",
    patches: [
      {
        file: 'recipes/queue/fair-queue.js',
        find: SUCCESSION_GRANT,
        replace: `if (departed && !standby) return granted(dir, mine, tokenOf(driver.token, { listing: await this.session.exists(dir), czxid: mine.czxid }), waited, driver.prefetch?.());\n${SUCCESSION_GRANT}`,
      },
    ],
  },
  {
    // Classic: Curator's protected mode (`CreateBuilderImpl.findNode`) matched the uuid prefix alone.
    name: 'adopt-unchecked-owner',
    defect:
      "After a lost create reply, a node carrying our uuid is adopted whatever its ephemeralOwner, so a look-alike made by hand (persistent) or by another session becomes our queue node: no two holders of a lock (another session's node), and a lock is free once its holder's session has ended (a persistent node never goes).",
    patches: [{ file: 'recipes/queue/lost-create.js', find: 'if (stat?.ephemeralOwner === sessionId)\n                own = { path, name, token: queueNodeToken(stat.czxid) };', replace: 'if (stat)\n                own = { path, name, token: queueNodeToken(stat.czxid) };' }],
  },
  {
    // Classic: setData with version -1, the ready znode of the ZooKeeper paper without its guard.
    name: 'unversioned-ready-write',
    defect:
      'Ready-record writes (entering, checkpointing, completing a guarded section, in the transaction that releases a lock too, a leader taking over) go out with version -1, so a stale holder that lost its lease without knowing overwrites the record of the holder after it: interrupted guarded sections are repaired exactly once, and the record never goes back to an older token.',
    patches: [
      {
        file: 'recipes/ready/ready-state.js',
        find: 'this.client.setData(this.path, encode(record), version)',
        replace: 'this.client.setData(this.path, encode(record), -1)',
      },
      {
        // A lock's completion in the transaction with its release (issue 32: the multi's check dropped).
        file: 'recipes/ready/guarded-section.js',
        find: "return { type: 'delete', path: this.state.path, version: this.version };",
        replace: "return { type: 'delete', path: this.state.path, version: -1 };",
      },
    ],
    // A stale holder exists now (a holder on a follower cut off from the leader, S5), but a stale
    // *write* does not: the leader checks every write's session (PrepRequestProcessor.checkSession).
    survives:
      'a stale write needs a writer that still writes after another holds. While its session lives its node lives, so nobody else holds (exclusivity); a holder that knows it lost the lease stops at the checks before every write (assertHeld, the tenure signal); and a holder that does not know (S5: on a follower cut off from the leader, or behind its touch forwarding, after the leader expired its session) cannot write at all: its writes go to the leader, which checks the session of each in log order with the closeSession that expired it, so each lands before the successor\'s grant or is refused. A lock\'s completion goes in one transaction with the delete of the holder\'s node, which exists only while nobody else holds. The version is defense in depth, which no fault of the simulation reaches (the violations this mutant shows with follower-cut are the S5 ones of the unmutated client, on the same seeds)',
  },
  {
    // Classic: reporting leadership on reconnection before knowing that the node still exists. The
    // check still ends the term when it fails, but only after leadership was reported.
    name: 'leader-before-ownership-check',
    defect:
      'After a reconnection (or a grant while disconnected), leadership is reported before the getData that checks our node still exists and is ours, so a leader whose node was deleted meanwhile, with a successor already leading, reports leadership until that check fails: leaders never overlap.',
    patches: [
      { file: 'recipes/election/leadership-term.js', find: 'this.checkOwnNode(attempt, proven);', replace: 'this.checkOwnNode(attempt, true);' },
      { file: 'recipes/election/leadership-term.js', find: 'await owned;', replace: 'void owned;' },
    ],
  },
  {
    // Curator's InterProcessMultiLock takes its locks in the caller's order.
    name: 'multi-lock-caller-order',
    defect:
      "withLocks takes its locks in the order the caller lists them instead of one canonical order, so a call listing reports then archive and one listing archive then reports can each hold the lock the other waits for: every call settles once the faults are over.",
    patches: [
      {
        file: 'services/lock-set.js',
        find: 'return [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));',
        replace: 'return [...seen];',
      },
    ],
  },
  {
    // The rule of the read/write lock, lost: a reader that never looks for writers ahead of it.
    name: 'reader-ignores-writers',
    defect:
      "A reader holds wherever it stands in the queue (READ_DRIVER's placeOf always holds), instead of waiting for the nearest writer queued ahead of it: a writer never holds together with any other holder of its read/write lock.",
    patches: [
      {
        file: 'recipes/read-write/read-write-drivers.js',
        find: "if (queue[ahead].marker === 'write')\n                return { holds: false, watch: ahead };",
        replace: ';',
      },
    ],
  },
  {
    // The herd-free wait, half understood: a reader looks at its predecessor only, as a writer does.
    name: 'reader-sees-predecessor-only',
    defect:
      'A reader holds unless its immediate predecessor is a writer, so a reader queued behind another reader that waits for a writer holds beside that writer: a writer never holds together with any other holder of its read/write lock.',
    patches: [
      {
        file: 'recipes/read-write/read-write-drivers.js',
        find: 'for (let ahead = index - 1; ahead >= 0; ahead -= 1)',
        replace: 'for (let ahead = index - 1; ahead >= 0 && ahead >= index - 1; ahead -= 1)',
      },
    ],
  },
  {
    // Curator's InterProcessSemaphoreV2 counts every lease node, its own included; leaving out our
    // own node is the off-by-one of a count taken "before adding mine".
    name: 'semaphore-own-permits-uncounted',
    defect:
      "A semaphore node holds when the permits of the nodes ahead of it fit, its own left out of the count: a request for take permits gets in while permits - take + 1 or more are held, so the permits held at once never exceed permits.",
    patches: [
      {
        file: 'recipes/semaphore/permit-driver.js',
        find: 'const taken = ahead + this.takeOf(queue[index]);',
        replace: 'const taken = ahead;',
      },
    ],
  },
  {
    // What the prefix rule is for: Curator's semaphore (before its lock around the lease) and many
    // home-made ones count every lease node, also those of callers still waiting.
    name: 'semaphore-counts-waiters-behind',
    defect:
      "A semaphore node counts the permits of every node in the queue, those behind it too, so callers waiting for permits count each other: with one permit held, a request for two and a request for one behind it wait for each other forever (each counts the other's node): every call settles once the faults are over.",
    patches: [
      {
        file: 'recipes/semaphore/permit-driver.js',
        find: 'const taken = ahead + this.takeOf(queue[index]);',
        replace: 'let taken = ahead + this.takeOf(queue[index]);\n        for (let i = index + 1; i < queue.length; i += 1)\n            taken += this.takeOf(queue[i]);',
      },
    ],
  },
  {
    // Curator's semaphore leaked lease nodes on some failed acquisitions (CURATOR-231 and its kin).
    name: 'try-once-keeps-node',
    defect:
      "An acquisition that tries once (waitMs 0: onBusy skip or throw, on a lock, a read/write lock or a semaphore) and is not granted at once gives up without deleting the node it made, which goes on queueing (a semaphore's counting its permits) for as long as its session lives: no queue node of a settled call remains, and every call settles once the faults are over.",
    patches: [
      {
        file: 'recipes/queue/fair-queue.js',
        find: 'attempt.mine = undefined;\n                    await this.leaveUnlessStopped(mine, control);\n                    return undefined;',
        replace: 'attempt.mine = undefined;\n                    return undefined;',
      },
    ],
  },
  {
    // The token rule of a semaphore (the granting listing's pzxid) on a reader.
    name: 'reader-token-from-listing',
    defect:
      "A reader's fencing token is the pzxid of the listing that granted it instead of its own node's czxid, so a reader that waited behind a writer, granted once that writer left, carries a token above the writer queued behind it: a writer's token is greater than every earlier holder's and less than every later holder's.",
    patches: [
      {
        file: 'recipes/read-write/read-write-drivers.js',
        find: "token: 'own-node',\n    placeOf(",
        replace: "token: 'granting-listing',\n    placeOf(",
      },
    ],
  },
  {
    // The mark of a release request (a setData on the holder's node) wakes the waiter that watches
    // that node, as any data watch does: only the node's deletion may let it in.
    name: 'mark-taken-for-departure',
    defect:
      "The predecessor wait takes a data change of the node it watches for its deletion, so a release or step-down request (a mark on the holder's node) counts as the holder's departure, and the participant standing by behind a marked leader is granted on the spot while the leader still leads (a lock's waiter lists the queue again and waits on): leaders never overlap.",
    patches: [
      {
        file: 'recipes/queue/predecessor-wait.js',
        find: "wait.end(event.type === 'deleted' && inOrder);",
        replace: "wait.end((event.type === 'deleted' || event.type === 'changed') && inOrder);",
      },
    ],
  },
  {
    // Revocation that does not trust the holder: the requester removes the holder's node instead of marking it.
    name: 'request-deletes-holder',
    defect:
      "requestRelease (and requestStepDown) deletes the node at the head of the queue instead of marking it, releasing the lock on the holder's behalf: the next in line is granted while the holder, which has no watch on its own node unless it read releaseRequested, goes on holding: a holder's node stays until it releases or its session ends, no two holders of a lock.",
    patches: [
      {
        file: 'recipes/queue/release-request.js',
        find: 'const marked = await markNode(client, node, data);',
        replace: 'await client.delete(node, -1);\n        const marked = { version: 1 };',
      },
    ],
  },
  {
    // The step-down request is a data change: a leader that only listens for the change misses a mark made before its watch stood.
    name: 'step-down-mark-before-watch-ignored',
    defect:
      "A new leader heeds a step-down request only when the watch on its node fires, not the mark already in the version its grant read (the watch inherited from the succession) nor the one its ownership check reads after a reconnection: asked before its watch stood, it never steps down: a leader asked to step down stops leading once the faults are over.",
    patches: [
      { file: 'recipes/election/leadership-term.js', find: 'if (watch.stepDownRequested)\n            this.hooks.stepDownRequested();', replace: '' },
      { file: 'recipes/election/leadership-term.js', find: 'if (isReleaseRequested(stat) && !this.isOver)\n                this.hooks.stepDownRequested();', replace: '' },
    ],
  },
  {
    // An off-by-one in reading the mark: every node starts at data version 0.
    name: 'unmarked-version-read-as-mark',
    defect:
      "A queue node's data version 0 (every node's at its creation) is taken for a release request: a holder's releaseRequested aborts on its first read, and a leader steps down at every ownership check, though nobody asked: releaseRequested aborts, and a leader steps down, only after a request marked its node.",
    patches: [{ file: 'recipes/queue/node-mark.js', find: 'return stat.version > 0;', replace: 'return stat.version >= 0;' }],
  },
  {
    // Curator's Revocable as most use it: the revocation listener releases the lock itself.
    name: 'released-when-asked',
    defect:
      "Once a holder that reads releaseRequested is asked to let go, the library releases its lease itself (as a revocation listener that calls release()) instead of leaving it to the holder: the lease ends while the locked call still runs, before it reached a safe point: a lease stays held until its own call ends or its session is lost.",
    patches: [
      {
        file: 'recipes/lock/lock-client.js',
        find: "if (requested() && this.events.wants('lock'))",
        replace: "if (requested() && (void lease.release().catch(() => undefined), this.events.wants('lock')))",
      },
    ],
  },
  {
    // Step-down as resign(): the leader leaves for good.
    name: 'step-down-without-rejoin',
    defect:
      'A leader asked to step down resigns and does not join again at the back: once every participant was asked, nobody takes part any more, and the election stays without a leader: once the faults are over, the election has a leader again.',
    patches: [
      {
        file: 'recipes/election/leader-election.js',
        find: 'done: participation.done.then(() => this.participate(controller.signal)) };',
        replace: 'done: participation.done };',
      },
    ],
  },
  {
    // As before 9a10d65 (issue 29, S5): any reply of the server we talk to proved contact.
    name: 'follower-answers-prove-contact',
    defect:
      "Every reply counts as proof that the leader still has the session, as of the request's send time: reads and pings that a follower cut off from the leader goes on answering keep a holder's loss clock quiet while the leader expires the session and grants the lock elsewhere: a holder whose session may have expired is told before another is granted (no two holders).",
    patches: [
      { file: 'zookeeper/leader-contact.js', find: "return LEADER_ROUTED.has(operation) ? 'leader' : 'local';", replace: "return 'leader';" },
      { file: 'zookeeper/leader-contact.js', find: 'return sessionTimeoutMs / 2;', replace: 'return 0;' },
      // The C client's pings, which the follower answers, kept the old clock quiet: a read does here.
      { file: 'zookeeper/supervised-session.js', find: "beat: () => void this.client?.sync('/').catch(() => undefined),", replace: "beat: () => void this.client?.exists('/').catch(() => undefined)," },
    ],
  },
  // The TypeScript client's own mistakes (issue 30): the simulation runs it over simulated sockets.
  {
    // ClientCnxn.primeConnection sends SetWatches right after the handshake; forgetting it is the classic.
    name: 'watches-not-restored',
    defect:
      "After a reconnection the client does not send setWatches, so the watches it had (a waiter's on its predecessor) are gone at the server while the client still waits on them: a deletion during or after the disconnection wakes nobody: every call settles once the faults are over.",
    patches: [
      {
        file: 'zookeeper/protocol/protocol-session.js',
        find: 'if (Object.values(watches).some((paths) => paths.length > 0)) {',
        replace: 'if (false) {',
      },
    ],
  },
  {
    // Issue 32: a grant without a listing must keep its proof that our node still exists.
    name: 'succession-without-own-watch',
    defect:
      "A succession grant (the election's waiter behind the leader, granted on the leader's deletion without listing) no longer requires the watch on its own node to stand: a waiter whose node was deleted meanwhile (by an operator, or with a session that ended) takes the lead on the predecessor's departure, next to whoever the queue now puts at its head: no two leaders at once.",
    patches: [
      {
        file: 'recipes/election/succession.js',
        find: 'if (node?.own !== mine || !node.watched || this.session.sessionId !== mine.sessionId)',
        replace: 'if (node?.own !== mine || this.session.sessionId !== mine.sessionId)',
      },
    ],
    survives:
      "The own-node watch that stops standing is the one that fired: its event (our node deleted or marked) reaches the waiter before the predecessor's deletion, ZooKeeper telling one session's events in order, and wakes it to look at the queue again, so the wait never ends with a departure while that watch is down. The check is the grant's own proof, kept so that it does not lean on how the wait is woken",
  },
  {
    // The lock's hand-off, as the election's succession: a grant without a listing keeps its proof
    // that our own node still exists. Here no wake-up shields it: the proof's watch only records.
    name: 'hand-off-without-existence-proof',
    defect:
      "A lock's or writer's hand-off (the waiter right behind the head, granted on the head's deletion without listing) no longer requires the watch on its own node to stand: a waiter whose node an operator deleted meanwhile takes the lock on its predecessor's departure, on a node that is gone, next to the waiter behind it, which the queue now puts at its head: a holder's node stays until it releases or its session ends, no two holders of a lock, a writer never holds with another holder.",
    patches: [
      {
        file: 'recipes/lock/hand-off.js',
        find: 'if (proof?.own !== mine || !proof.standing || this.session.sessionId !== mine.sessionId)',
        replace: 'if (proof?.own !== mine || this.session.sessionId !== mine.sessionId)',
      },
    ],
    // An operator deleting a waiter's node, one of the rare faults (enabled in fewer seeds), and
    // with the election's waiters among its victims: seed 54 of every kind, seed 1 with it alone.
    faults: ['operator-delete'],
  },
  {
    // The read timeout of ClientCnxn.SendThread (2/3 of the session timeout without hearing anything).
    name: 'no-read-timeout',
    defect:
      'The client never gives up a connection it hears nothing from, so a silent server (a partition, a server that stopped answering) keeps it, neither reconnecting elsewhere nor telling ZkSession that it is disconnected: every call settles once the faults are over.',
    patches: [{ file: 'zookeeper/protocol/protocol-session.js', find: 'if (silentFor >= readTimeoutMs) {', replace: 'if (false) {' }],
  },
  {
    // The ping half of the same timer: a client that only sends when the application does.
    name: 'no-ping',
    defect:
      'The client never pings, so an idle session is touched by nobody, the leader expires it while the client believes it connected, and its read timeout drops the connection it never hears from: holders and leaders lose their sessions for nothing: every call settles once the faults are over.',
    patches: [{ file: 'zookeeper/protocol/protocol-session.js', find: 'if (now >= pingAt) {', replace: 'if (false) {' }],
    survives:
      "ZkSession's leader heartbeat (leader-heartbeat.ts) sends a sync whenever nothing went through the leader for a sixth of the timeout, twice as often as the client would ping: the session is touched and the connection heard from without a single ping. The ping matters to a ProtocolHandle used without ZkSession, which the simulation does not run",
  },
  {
    // ClientCnxn.readResponse's "Xid out of order" check.
    name: 'replies-matched-by-arrival',
    defect:
      "A reply is taken for the answer to the oldest request in flight whatever its xid, so a stream that delivers replies out of order (the reorder fault) hands one request's answer to another (a listing of one lock directory to a waiter of another): no two holders of a lock, and no call hangs.",
    patches: [{ file: 'zookeeper/protocol/protocol-session.js', find: 'if (!pending || pending.xid !== header.xid) {', replace: 'if (!pending) {' }],
  },
  {
    // Issue 32: a moving ensemble, followed through /zookeeper/config.
    name: 'ensemble-not-followed',
    defect:
      "The ensemble tracker reads /zookeeper/config but never hands the members it lists to the driver, so a process keeps dialing the servers of its connect string only; once a moving ensemble (a quarter of the seeds) retired them all it reaches no server again: its session expires unknown to it, and its calls and the election hang once the faults are over.",
    patches: [{ file: 'zookeeper/ensemble-tracker.js', find: 'const hosts = clientAddresses(config, this.secure);', replace: 'const hosts = [];' }],
  },
  {
    // Issue 32: persistent watches (the dashboard's root watch) across reconnections.
    name: 'persistent-watch-not-restored',
    defect:
      "After a reconnection the client's setWatches carries the one-shot watches but not the persistent recursive ones, so the dashboard's root watch, which stands for the whole session and is never set again on it, is gone at the server while the client still counts on it: a change below the root is reported by nobody.",
    patches: [{ file: 'zookeeper/protocol/watch-registry.js', find: 'persistentRecursive: paths(this.recursive),', replace: 'persistentRecursive: [],' }],
  },
  {
    // Issue 32: the transaction that completes a guarded lock section and releases the lock.
    name: 'completion-assumed-on-release',
    defect:
      "A guarded lock section whose end transaction (completion and release in one multi) is still unanswered when its session stops counting (the release resolves then, bounded by the session) is reported completed: its call succeeds although the record may still say dirty, so the next holder repairs a section whose call succeeded.",
    patches: [
      {
        file: 'recipes/lock/completing-release.js',
        find: "this.end(new LockLostError(lease.path, 'the session ended before the completion of its guarded section was confirmed'));",
        replace: 'this.end();',
      },
    ],
    // A session that ends while the transaction is out, and ends for real: quorum lost with a
    // server down, a session expired (found in 20 schedules with these, in 137 with every kind).
    faults: ['member-restart', 'expire'],
  },
  {
    // Issue 33: what keeps two replicas from owning one partition is that ownership is the
    // partition's lock; here each replica queues on a lock of its own name for it.
    name: 'partition-lock-per-replica',
    defect:
      'Each replica takes partition k through a lock named after itself (`<k>-<identity>`) instead of the one lock `<k>`: the taker of a moving partition is granted at once, while the giver still owns it and its runs go on, so two replicas claim the partition (and their ready znodes differ, so a dead owner is never repaired).',
    patches: [
      {
        file: 'recipes/partition/partition-set.js',
        find: 'new PartitionHolder(k, String(k), host, this.path)',
        replace: 'new PartitionHolder(k, `${k}-${options.identity}`, host, this.path)',
      },
      {
        file: 'recipes/partition/partition-work.js',
        find: 'this.locks.enterGuarded(String(partition), owner,',
        replace: 'this.locks.enterGuarded(`${partition}-${this.identity}`, owner,',
      },
    ],
    partitions: 5,
  },
  {
    // Issue 33: a lost partition must be queued for again while the assignment still gives it to us.
    name: 'partition-not-requeued-after-loss',
    defect:
      'A replica that loses a partition (its session in doubt past the loss deadline, then back) does not queue for it again: the assignment still gives it the partition, nothing changes the assignment, and the partition stays owned by nobody once the faults are over.',
    patches: [
      {
        file: 'recipes/partition/partition-holder.js',
        find: 'void pause(backoffDelay(this.failures, 10)).then(() => this.reconcile());',
        replace: '',
      },
    ],
    partitions: 5,
  },
  {
    // Issue 33: the assignment must not depend on the order the server lists the members in (a
    // server's hash order, which differs between servers and over time; the simulated one shuffles
    // every listing), nor hand the remainder's "+1"s to anyone but the members already above their floor.
    name: 'partition-assignment-listing-order',
    defect:
      'The assignment takes the members in the order getChildren lists them instead of sorting them, and hands the "+1"s of N mod M to the first listed instead of to those that hold more than ⌊N/M⌋: two replicas (or one, listing twice) compute different assignments from the same members and assignment, and a join or leave takes a partition from a member above its floor only to give another member its "+1", a move no even assignment needs.',
    patches: [
      {
        file: 'recipes/partition/assignment.js',
        find: 'const sorted = [...members].sort((a, b) => compareIds(a.id, b.id));',
        replace: 'const sorted = [...members];',
      },
      {
        file: 'recipes/partition/assignment.js',
        find: '.sort((a, b) => above(b) - above(a) || b.rest - a.rest || compareIds(a.id, b.id));',
        replace: '.sort((a, b) => b.rest - a.rest);',
      },
    ],
    partitions: 5,
  },
];
