/**
 * One schedule: a seed's swarm configuration (which faults are enabled and how often, how many
 * processes, which server ids, which session timeout), its fault plan, and the run of it on a
 * fresh simulated ensemble, from start-up through faults, healing, draining and shutdown, to the
 * end-state and liveness checks.
 */
import type { ZkDriver } from '../../src/zookeeper/open-session-handle.js';
import { SimRandom } from '../../src/zookeeper/simulated/sim-random.js';
import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';
import type { WriteRequest } from '../../src/zookeeper/simulated/znode-tree.js';
import { installVirtualRuntime } from '../../src/zookeeper/simulated/virtual-runtime.js';
import { Invariants, type RevocationCounts, type Violation } from './invariants.js';
import { SessionKeeping } from './session-keeping.js';
import { parseAssignment } from '../../src/recipes/partition/partition-records.js';
import { znodePaths } from '../../src/recipes/znode-paths.js';
import { PartitionInvariants } from './partition-invariants.js';
import { PARTITION_SET } from './partition-workload.js';
import { ELECTION, SIM_ROOT, SimProcess } from './sim-process.js';
import { moveEnsemble, type MovingEnsemble } from './moving-ensemble.js';
import { waitingNodes } from './waiting-nodes.js';

export const FAULT_KINDS = [
  'disconnect',
  'lost-reply',
  'blackhole',
  'reorder',
  'partition',
  'follower-cut',
  'lag',
  'member-restart',
  'session-moved',
  'expire',
  'pause',
  'block',
  'crash',
  'wipe',
  'oversize',
  'operator-delete',
  'look-alike',
  'shutdown',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
const RC_CONNECTIONLOSS = -4;
/** A node of a locked call: a queue node of a lock, read/write lock or semaphore. */
const LEFT_BEHIND = /\/(locks|rwlocks|semaphores)\/[^/]+\/_c_[^/]+$/;

/** Enabled in fewer seeds: each leaves the run in a state the others then rarely get to act on. */
const RARE_FAULTS: readonly FaultKind[] = ['wipe', 'oversize', 'operator-delete', 'look-alike'];
/**
 * Enabled in more seeds: a follower cut off from the leader is the one fault where a client that
 * still hears its server has lost its session (ZooKeeper's S5), and it needs a holder on that follower.
 */
const FREQUENT_FAULTS: readonly FaultKind[] = ['follower-cut'];

export interface PlannedFault {
  readonly at: number;
  readonly kind: FaultKind;
  /** Picks the process or member (modulo how many there are when it strikes). */
  readonly target: number;
  /** A duration or size, drawn with the plan. */
  readonly amount: number;
}

export interface ScheduleConfig {
  readonly seed: number;
  readonly processes: number;
  readonly serverIds: readonly number[];
  readonly sessionTimeoutMs: number;
  /** The ensemble's `syncLimit`, in ticks: how long a follower cut off from the leader serves on. */
  readonly syncLimitTicks: number;
  /** Where every directory's sequence counter starts: near 2^31, the recipes' sequence numbers wrap mid-run. */
  readonly sequenceStart: number;
  /** Faults strike in [0, faultMs); then everything heals and the processes drain and shut down. */
  readonly faultMs: number;
  readonly enabled: readonly FaultKind[];
  readonly plan: readonly PlannedFault[];
  /** The client the processes run: the TypeScript one over simulated sockets (default), or the simulated C client. */
  readonly driver: ZkDriver;
  /** The count of the partition set the processes join (`PartitionWorkload`); 0: no partition workload. */
  readonly partitions: number;
  /** Every original member is replaced during the faults (`moveEnsemble`): the processes must follow `/zookeeper/config`. */
  readonly moving: boolean;
}

export interface ScheduleResult {
  readonly config: ScheduleConfig;
  readonly violations: readonly Violation[];
  readonly steps: number;
  readonly simulatedMs: number;
  readonly faults: Partial<Record<FaultKind, number>>;
  readonly revocations: RevocationCounts;
  /** Writes of the partition set's assignment judged by the fewest-moves check. */
  readonly assignmentsJudged: number;
}

/** The swarm configuration and fault plan of `seed` (each seed enables its own mix of faults). */
export function planSchedule(seed: number, options: { faultMs?: number; only?: readonly FaultKind[]; driver?: ZkDriver; partitions?: number; moving?: boolean } = {}): ScheduleConfig {
  const r = new SimRandom(seed);
  const processes = r.between(2, 5);
  const serverIds = r.pick([[1, 2, 3], [1, 2, 3], [1, 2, 255], [255], [1, 255, 3]]);
  const sessionTimeoutMs = r.pick([2000, 4000, 6000]);
  const faultMs = options.faultMs ?? r.between(10, 40) * 1000;
  const candidates = options.only ?? FAULT_KINDS;
  let enabled = candidates.filter((kind) => r.chance(RARE_FAULTS.includes(kind) ? 0.15 : FREQUENT_FAULTS.includes(kind) ? 0.8 : 0.5));
  if (enabled.length === 0) enabled = [r.pick(candidates)];
  const meanGapMs = r.between(200, 3000);
  const plan: PlannedFault[] = [];
  for (let at = -Math.log(1 - r.float()) * meanGapMs; at < faultMs; at += -Math.log(1 - r.float()) * meanGapMs) {
    const kind = r.pick(enabled);
    if (kind === 'oversize') continue; // a configuration, not an event
    plan.push({ at: Math.round(at), kind, target: r.int(1000), amount: r.float() });
  }
  // A syncLimit of 5 ticks (ZooKeeper's sample configuration), 10 or 20: 2.5, 5 or 10 s at the
  // simulation's 500 ms tick (with the sample's 2 s tick, 5 ticks are 10 s, above many session timeouts).
  const syncLimitTicks = r.pick([5, 10, 20]);
  // In a third of the seeds, every directory's first sequential child is a few short of 2^31 - 1.
  const sequenceStart = r.chance(1 / 3) ? 2 ** 31 - 1 - r.between(0, 20) : 0;
  // In a third of the seeds, a partition set of 3 to 6 partitions (drawn last: the other draws of a
  // seed stay what they were before the partition workload existed).
  const partitions = options.partitions ?? (r.chance(1 / 3) ? r.between(3, 6) : 0);
  // In a quarter of the seeds (drawn last, for the same reason), the ensemble moves: only the
  // TypeScript driver can follow it (the C client cannot change its servers).
  const driver = options.driver ?? 'typescript';
  const moving = options.moving ?? (driver === 'typescript' && r.chance(1 / 4));
  return { seed, processes, serverIds, sessionTimeoutMs, syncLimitTicks, sequenceStart, faultMs, enabled, plan, driver, partitions, moving };
}

/** Runs one schedule; `trace` receives the readable trace (for replays). */
export async function runSchedule(config: ScheduleConfig, trace?: (line: string) => void): Promise<ScheduleResult> {
  const scheduler = new SimScheduler(config.seed);
  scheduler.tracer = trace;
  const invariants = new Invariants(() => scheduler.now, trace && ((text) => scheduler.note(text, 'check')));
  scheduler.onUncaught = (error, event) => invariants.violate('uncaught-exception', `${event.actor} (${event.label}): ${describe(error)}`);
  const onRejection = (error: unknown) => invariants.violate('unhandled-rejection', describe(error));
  process.on('unhandledRejection', onRejection);
  const uninstall = installVirtualRuntime(scheduler);
  try {
    return await simulate(config, scheduler, invariants);
  } finally {
    uninstall();
    process.off('unhandledRejection', onRejection);
  }
}

async function simulate(config: ScheduleConfig, scheduler: SimScheduler, invariants: Invariants): Promise<ScheduleResult> {
  const ensemble = new SimulatedEnsemble(scheduler, { serverIds: config.serverIds, syncLimitTicks: config.syncLimitTicks, sequenceStart: config.sequenceStart, reconfigEnabled: config.moving });
  invariants.readTree((path) => {
    const node = ensemble.readNode(path);
    return node && node.stat.ephemeralOwner.toString(16);
  });
  const timeout = config.sessionTimeoutMs;
  const oversize = config.enabled.includes('oversize');
  const keeping = new SessionKeeping(invariants, () => scheduler.now, timeout);
  const onExpired = (actor: string, sessionId: string) => keeping.expired(actor, sessionId);
  const partitionInvariants = new PartitionInvariants(invariants);
  const assignment = storedAssignment(ensemble);
  if (config.partitions > 0) partitionInvariants.followAssignment(assignment);
  const processConfig = {
    driver: config.driver,
    onExpired,
    sessionTimeoutMs: timeout,
    oversizeChance: oversize ? 0.05 : 0,
    ...(oversize && { maxRecordBytes: 2 * 1024 * 1024 }),
    ...(config.partitions > 0 && { partitions: { count: config.partitions, invariants: partitionInvariants } }),
  };
  const processes: SimProcess[] = [];
  let spawned = 0;
  let faultsOver = false;
  const spawn = (delayMs: number) => {
    scheduler.schedule(delayMs, () => {
      // A replacement due after the faults ended is not started: the run is winding down.
      if (faultsOver) return;
      const p = new SimProcess(`p${++spawned}`, scheduler, ensemble, invariants, processConfig);
      processes.push(p);
      p.start();
    }, 'spawn');
  };
  for (let i = 0; i < config.processes; i++) spawn(scheduler.random.between(0, 200));

  const faults: Partial<Record<FaultKind, number>> = {};
  const operator = ensemble.operatorSession();
  const live = () => processes.filter((p) => !p.crashed && !p.shutDown);
  const inTouch = (actor: string) => ensemble.connectionsOf(actor).length > 0 && !scheduler.isPaused(actor);
  const moving = config.moving ? moveEnsemble(scheduler, ensemble, config.faultMs, () => live().map((p) => p.actor), inTouch) : undefined;
  for (const fault of config.plan) {
    scheduler.schedule(fault.at, () => {
      const applied = strike(fault, { operator, scheduler, ensemble, invariants, partitions: partitionInvariants, live: live(), timeout, spawn, driver: config.driver, keeping });
      if (applied) faults[fault.kind] = (faults[fault.kind] ?? 0) + 1;
    }, `fault ${fault.kind}`);
  }

  const check = () => {
    invariants.checkStep();
    partitionInvariants.checkStep();
  };
  await scheduler.run({ untilMs: config.faultMs, afterStep: check });

  // Healing: no fault strikes any more; pauses already begun run out (at most 2.5 timeouts).
  scheduler.note('faults over: healing the ensemble, processes stop starting work');
  faultsOver = true;
  ensemble.heal();
  if (moving) await lastMove(moving, { scheduler, live, inTouch, timeout, check, violate: (text) => invariants.violate('liveness', text) });
  const calmFrom = moving ? scheduler.now : config.faultMs;
  for (const p of live()) p.stopWork();
  const settleBy = scheduler.now + 2.5 * timeout + 4 * timeout + 10_000;
  await scheduler.run({ untilMs: settleBy, afterStep: check, done: () => live().every((p) => p.pending.size === 0) });
  for (const p of live()) {
    for (const op of p.pending.values()) {
      invariants.violate('liveness', `${p.actor}: ${op.what} (since ${(op.since / 1000).toFixed(3)}s) did not settle within ${Math.round(settleBy - config.faultMs)} ms of the faults ending`);
    }
  }

  // Step-down liveness: once the faults are over, every leader asked to step down stops leading
  // within a bound (its node goes: it stepped down, or its session ended), and the election has a
  // leader again among the processes that take part. The bound: pauses run out (2.5 timeouts),
  // sessions come back or expire (2 timeouts), sections drain (drainTimeoutMs, 2 s), 5 s to spare.
  const participants = () => live().filter((p) => p.participates);
  const someoneLeads = () => participants().length === 0 || participants().some((p) => p.leads);
  const leaderBound = 4.5 * timeout + 2000 + 5000;
  await scheduler.run({ untilMs: calmFrom + leaderBound, afterStep: check, done: () => invariants.askedLeadersRemaining().length === 0 && someoneLeads() });
  for (const asked of invariants.askedLeadersRemaining()) {
    invariants.violate('step-down-liveness', `${asked.node} of session 0x${asked.sessionId}, asked to step down at ${(asked.at / 1000).toFixed(3)} s, is still there ${leaderBound} ms after the faults ended`);
  }
  if (!someoneLeads()) invariants.violate('liveness', `no process leads ${ELECTION} ${leaderBound} ms after the faults ended (${participants().map((p) => p.actor).join(', ')} should take part)`);

  // Partition liveness: once the faults are over, every partition is owned by exactly one of the
  // processes in the set, evenly, each owning what the stored assignment gives its member node
  // (within the same bound: sessions settle, the assigner is elected and writes, moves drain).
  if (config.partitions > 0) {
    const members = () => live().flatMap((p) => (p.partitionsOwned ? [{ process: p.actor, owned: p.partitionsOwned, member: p.partitionMember }] : []));
    const unsettled = () => PartitionInvariants.unsettled(config.partitions, members(), assignment()?.owners ?? []);
    await scheduler.run({ untilMs: calmFrom + leaderBound, afterStep: check, done: () => unsettled() === undefined });
    const wrong = unsettled();
    if (wrong) invariants.violate('partition-liveness', `${leaderBound} ms after the faults ended, ${wrong}`);
  }

  // Every call of a process has settled: no queue node of its session may remain in a lock's,
  // a read/write lock's or a semaphore's directory (DESIGN §8.3), once the deletes that go on in
  // the background (a give-up while a request was unanswered) went through. Its election node
  // stays, as it should.
  const idle = () => new Map(live().filter((p) => p.pending.size === 0 && p.sessionId !== undefined).map((p) => [p.sessionId!, p.actor]));
  const leftBehind = () => {
    const owners = idle();
    // A partition's lock stays held by its owner: those nodes go when the process shuts down (checked below).
    return ensemble.nodes().filter((n) => owners.has(n.owner) && LEFT_BEHIND.test(n.path) && !n.path.startsWith(`${SIM_ROOT}/partitions/`)).map((n) => ({ ...n, actor: owners.get(n.owner)! }));
  };
  const cleanBy = scheduler.now + 2 * timeout;
  await scheduler.run({ untilMs: cleanBy, afterStep: check, done: () => leftBehind().length === 0 });
  for (const node of leftBehind()) invariants.violate('orphan-node', `${node.path} of ${node.actor} (session 0x${node.owner}) remains ${2 * timeout} ms after every call of that process settled`);

  scheduler.note('shutting down every process');
  const stopping = live();
  let stopped = 0;
  for (const p of stopping) scheduler.schedule(0, () => void p.shutdown().finally(() => stopped++), 'shutdown', p.actor);
  const shutdownBound = 2000 + 2 * timeout + 5000;
  const shutdownBy = scheduler.now + shutdownBound;
  await scheduler.run({ untilMs: shutdownBy, afterStep: check, done: () => stopped === stopping.length });
  if (stopped < stopping.length) invariants.violate('liveness', `${stopping.length - stopped} process(es) did not finish shutting down within ${shutdownBound} ms`);

  // Sessions of crashed processes expire by themselves; then nothing of the workload may remain.
  const clearBy = scheduler.now + 2 * timeout + 2 * ensemble.tickMs;
  const ephemerals = () => ensemble.nodes().filter((n) => n.owner !== '0' && n.owner !== operator);
  const sessions = () => ensemble.liveSessions().filter((id) => id !== operator);
  await scheduler.run({ untilMs: clearBy, afterStep: check, done: () => ephemerals().length === 0 && sessions().length === 0 });
  for (const node of ephemerals()) invariants.violate('orphan-node', `${node.path} of session 0x${node.owner} outlived every process`);
  for (const id of sessions()) invariants.violate('orphan-session', `session 0x${id} outlived every process`);

  return { config, violations: invariants.violations, steps: scheduler.steps, simulatedMs: scheduler.now, faults, revocations: invariants.revocations, assignmentsJudged: partitionInvariants.counts.assignmentsJudged };
}

/**
 * A moving ensemble's end (see `moveEnsemble`): the work goes on while the last original member
 * leaves (once every process is in touch), and for two session timeouts after; by then every
 * live process must be connected to a member again, which only following the config allows.
 */
async function lastMove(
  moving: MovingEnsemble,
  c: { scheduler: SimScheduler; live: () => SimProcess[]; inTouch: (actor: string) => boolean; timeout: number; check: () => void; violate: (text: string) => void },
): Promise<void> {
  const { scheduler, timeout, check } = c;
  // Pauses run out within 2.5 timeouts of the faults' end, then every process reconnects.
  const movedBy = scheduler.now + 4 * timeout + 10_000;
  await scheduler.run({ untilMs: movedBy, afterStep: check, done: moving.done });
  if (!moving.done()) return c.violate(`the last original member could not leave within ${4 * timeout + 10_000} ms of the faults' end: some process was never in touch with a member for a second`);
  const reachedBy = moving.lastRetiredAt()! + 2 * timeout;
  await scheduler.run({ untilMs: reachedBy, afterStep: check });
  // A process may be between two connections right then: it gets one more timeout.
  await scheduler.run({ untilMs: reachedBy + timeout, afterStep: check, done: () => c.live().every((p) => c.inTouch(p.actor)) });
  for (const p of c.live()) {
    if (!c.inTouch(p.actor)) c.violate(`${p.actor} reaches no member ${2 * timeout} ms after the last original server was retired: did its session follow /zookeeper/config?`);
  }
}

interface FaultContext {
  /** The session of an operator (see `SimulatedEnsemble.operatorSession`). */
  readonly operator: string;
  readonly scheduler: SimScheduler;
  readonly ensemble: SimulatedEnsemble;
  readonly invariants: Invariants;
  readonly partitions: PartitionInvariants;
  readonly live: SimProcess[];
  readonly timeout: number;
  readonly spawn: (delayMs: number) => void;
  readonly driver: ZkDriver;
  /** Told of each fault that may cost a process its session (see `SessionKeeping`). */
  readonly keeping: SessionKeeping;
}

/** Applies one planned fault; false when it had nothing to strike. */
function strike(fault: PlannedFault, c: FaultContext): boolean {
  const { scheduler, ensemble, timeout } = c;
  const process = c.live.length ? c.live[fault.target % c.live.length]! : undefined;
  const member = ensemble.members[fault.target % ensemble.members.length]!;
  const between = (min: number, max: number) => Math.round(min + fault.amount * (max - min));
  const say = (what: string) => scheduler.note(`FAULT ${fault.kind}: ${what}`);
  switch (fault.kind) {
    case 'disconnect': {
      const connections = process ? ensemble.connectionsOf(process.actor) : [];
      for (const connection of connections) connection.close('fault: connection cut');
      say(`${process?.actor} disconnected`);
      return connections.length > 0;
    }
    case 'lost-reply': {
      const connections = process ? ensemble.connectionsOf(process.actor) : [];
      for (const connection of connections) connection.loseReply = {};
      say(`${process?.actor}'s next applied write loses its reply`);
      return connections.length > 0;
    }
    case 'blackhole': {
      // A stateful firewall or NAT forgets the connection: every packet of it is dropped, both
      // ways, for good, and neither end is told. Only the client's read timeout gets it out.
      const connections = process ? ensemble.connectionsOf(process.actor) : [];
      for (const connection of connections) connection.close('fault: the path drops every packet of the connection', true);
      say(`${process?.actor}'s connection goes silent for good`);
      return connections.length > 0;
    }
    case 'reorder': {
      // A stream that delivers two replies in swapped order (a buggy server or proxy): the client's
      // xid check must drop the connection. Frames exist only between the TypeScript client and its link.
      const connections = process && c.driver === 'typescript' ? ensemble.connectionsOf(process.actor) : [];
      for (const connection of connections) connection.swapReplies = true;
      say(`${process?.actor}'s next two replies arrive swapped`);
      return connections.length > 0;
    }
    case 'partition': {
      if (!process) return false;
      const ms = between(0.2 * timeout, 2 * timeout);
      ensemble.partition(process.actor, ms);
      c.keeping.excuse(process.actor, ms);
      say(`${process.actor} cut off silently for ${ms} ms`);
      return true;
    }
    case 'follower-cut': {
      // A follower's link to the leader stops delivering, neither end told: the follower answers
      // its clients' pings and reads until syncLimit ticks pass, while the leader, no longer
      // touched, expires their sessions one timeout after the last touch the follower forwarded.
      // The follower hosting a live process is picked first: that is where a holder can outlive its session.
      const followers = ensemble.followers.filter((m) => m.up);
      const hosting = followers.filter((m) => c.live.some((p) => ensemble.connectionsOf(p.actor).some((k) => k.member === m)));
      const pool = hosting.length > 0 ? hosting : followers;
      const follower = pool.length > 0 ? pool[fault.target % pool.length]! : undefined;
      if (!follower || !ensemble.cutFollower(follower.id)) return false;
      const ms = between(0.3 * timeout, 3 * timeout);
      scheduler.schedule(ms, () => ensemble.reconnectFollower(follower.id), 'follower link heals');
      c.keeping.excuse(undefined, ms);
      say(`server ${follower.id} cut off from the leader for ${ms} ms`);
      return true;
    }
    case 'lag': {
      const ms = between(50, 3000);
      ensemble.lag(member.id, ms);
      c.keeping.excuse(undefined, ms);
      say(`server ${member.id} lags ${ms} ms`);
      return true;
    }
    case 'member-restart': {
      const ms = between(100, 5000);
      ensemble.setMemberUp(member.id, false);
      scheduler.schedule(ms, () => ensemble.setMemberUp(member.id, true), 'member up');
      c.keeping.excuse(undefined, ms);
      say(`server ${member.id} down for ${ms} ms`);
      return true;
    }
    case 'session-moved': {
      if (!process?.sessionId) return false;
      ensemble.moveSessionOnce(process.sessionId);
      say(`${process.actor}'s next write is refused with SESSIONMOVED`);
      return true;
    }
    case 'expire': {
      // ZooKeeper expires a session only when it heard nothing from it for the timeout: the
      // connection drops and stays unreachable past that (a forced expiry of a session whose
      // client still pings would break the very guarantee the library builds on).
      if (!process) return false;
      const ms = between(1.2 * timeout, 2.5 * timeout);
      for (const connection of ensemble.connectionsOf(process.actor)) connection.close('fault: connection cut');
      ensemble.partition(process.actor, ms);
      c.keeping.excuse(process.actor, ms);
      say(`${process.actor} disconnected and unreachable for ${ms} ms: its session expires meanwhile`);
      return true;
    }
    case 'pause':
    case 'block': {
      if (!process) return false;
      const ms = fault.kind === 'pause' ? between(0.2 * timeout, 2.5 * timeout) : between(20, 1500);
      scheduler.pause(process.actor, ms);
      c.keeping.excuse(process.actor, ms);
      say(`${process.actor} ${fault.kind === 'pause' ? 'paused (SIGSTOP)' : 'blocks its event loop'} for ${ms} ms`);
      return true;
    }
    case 'crash': {
      if (!process || c.live.length < 2) return false;
      process.crash();
      const restartIn = between(0, 3000);
      c.spawn(restartIn);
      say(`${process.actor} killed (SIGKILL); a new process starts in ${restartIn} ms`);
      return true;
    }
    case 'shutdown': {
      // A rolling deploy: the process shuts down as Nest's does (waiting calls aborted, running
      // ones given drainTimeoutMs, then their locks revoked; leader sections drained, the node
      // deleted), and a new one starts a little later.
      if (!process || process.isClosing) return false;
      // The process's own step: a stopped process runs nothing until it is continued.
      scheduler.schedule(0, () => void process.shutdown(), 'shutdown', process.actor);
      const restartIn = between(0, 3000);
      c.spawn(restartIn);
      say(`${process.actor} shuts down gracefully; a new process starts in ${restartIn} ms`);
      return true;
    }
    case 'wipe': {
      ensemble.wipe();
      c.keeping.excuse(undefined, 0);
      c.invariants.newEra();
      c.partitions.newEra();
      say('every server restarted with an empty data directory');
      return true;
    }
    case 'operator-delete': {
      // Someone deletes a queue node by hand (zkCli, a cleanup script), one of two kinds the library
      // can be held to surviving whatever the timing. The election node of a participant that is
      // disconnected: when its session comes back, it must check that its node is still its own
      // before it reports leadership again. (A connected participant learns of it by its node's
      // watch; one that is paused, blocked, or not yet aware that its connection is gone cannot, so
      // deleting the node of a leader makes two leaders whatever the library does.) Or, whatever
      // its process's state, the node of a waiter of a lock, read/write lock or the election that
      // no holder or leader can stand on (see `waitingNodes`): it never held on that node, and must
      // never hold on it, not even on a hand-off or succession (granted on its predecessor's
      // deletion without listing: the proof that its own node still stands is what stops it), but
      // queue again.
      const cutOff = c.live.filter((p) => p.sessionId && p.knowsItIsDisconnected && !scheduler.isPaused(p.actor)).map((p) => p.sessionId);
      const tree = ensemble.nodes();
      const electionNodes = tree.filter((n) => /\/elections\/[^/]+\/_c_[^/]+-n-/.test(n.path) && cutOff.includes(n.owner));
      const waiters = waitingNodes(tree, SIM_ROOT).filter((n) => n.owner !== c.operator);
      // The disconnected participants' nodes first, when there are any: that deletion is rarer to
      // line up (and what finds a leader that skips its ownership check after a reconnection).
      const nodes = electionNodes.length > 0 ? electionNodes : waiters;
      if (nodes.length === 0) return false;
      const victim = nodes[fault.target % nodes.length]!;
      ensemble.operatorWrite(c.operator, { op: 'delete', path: victim.path, version: -1 });
      say(`an operator deletes ${victim.path} of session 0x${victim.owner}, ${electionNodes.includes(victim) ? 'which is disconnected' : 'a waiter'}`);
      return true;
    }
    case 'look-alike': {
      // A create of a queue node loses its reply, and before the client looks for the node it
      // may have made, another session holds one with the same uuid (what an abandoned session
      // the server kept alive leaves when the acquisition retries): it must adopt its own only.
      const connections = process ? ensemble.connectionsOf(process.actor) : [];
      const queueCreate = (request: WriteRequest) => request.op === 'create' && /\/_c_[0-9a-f-]{36}-(lock|n|read|write|\d{1,9}of\d{1,9})-$/.test(request.path);
      for (const connection of connections) {
        connection.loseReply = {
          when: queueCreate,
          then: (request) => {
            const { path } = ensemble.operatorWrite(c.operator, { op: 'create', path: request.path, data: Buffer.from('look-alike'), flags: 3 });
            // The other session lets it go a little later (until the ensemble takes the delete).
            const remove = () => {
              if (ensemble.operatorWrite(c.operator, { op: 'delete', path: path!, version: -1 }).rc === RC_CONNECTIONLOSS) scheduler.schedule(500, remove, 'look-alike gone');
            };
            if (path) scheduler.schedule(between(100, 3000), remove, 'look-alike gone');
            scheduler.note(`FAULT look-alike: the reply of ${request.path}… is lost; an operator session creates ${path}`);
          },
        };
      }
      say(`${process?.actor}'s next queue-node create loses its reply and gets a look-alike`);
      return connections.length > 0;
    }
    case 'oversize':
      return false;
  }
}

/** Reads the partition set's assignment from the leader's tree (for `PartitionInvariants.followAssignment`). */
function storedAssignment(ensemble: SimulatedEnsemble): () => { owners: readonly (string | null)[]; version: number; czxid: bigint } | undefined {
  const path = `${znodePaths.partitionSetDir(SIM_ROOT, PARTITION_SET)}/assignment`;
  let parsed: { version: number; czxid: bigint; owners: readonly (string | null)[] } | undefined;
  return () => {
    const node = ensemble.readNode(path);
    if (!node) return undefined;
    const { version, czxid } = node.stat;
    // Parsed once per version: the check reads it after every step.
    if (parsed?.version !== version || parsed.czxid !== czxid) parsed = { version, czxid, owners: parseAssignment(path, node.data).owners };
    return parsed;
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack?.split('\n').slice(1, 4).join('\n')}` : String(error);
}
