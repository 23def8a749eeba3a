import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers';
import { RealTimeClock } from '../../zookeeper/simulated/real-time-clock.js';
import { SimulatedEnsemble } from '../../zookeeper/simulated/simulated-ensemble.js';
import { ZkSession } from '../../zookeeper/supervised-session.js';
import { ensurePath } from '../queue/ensure-path.js';
import { queueNodePrefix } from '../queue/queue-node.js';
import { LeaderElection } from './leader-election.js';

/** Far above what the rehearsal takes (tens of ms, cold): reached only if the recipe hangs. */
const REHEARSAL_TIMEOUT_MS = 5_000;

/**
 * Hand-overs per rehearsal. The first compiles the code; V8 gives a function the feedback its
 * property accesses run fast on only after several calls, and the next rounds bring the path's
 * slowest step, the take-over's chain of promises, down with them.
 */
const REHEARSAL_ROUNDS = 3;

/** Reports nothing: a sink for any channel. */
const NO_EVENTS = { wants: () => false, emit: () => undefined };

/** The simulator's self-re-arming events (see `RealTimeClock`): they must not keep the process alive. */
const BACKGROUND = ['session tick', 'container sweep', 'ping', 'connect timeout'];

/**
 * Runs hand-overs of leadership through the election's own code, and the session's, on a simulated
 * ZooKeeper in memory (`SimulatedEnsemble` on the process's real timers): a participant joins
 * behind a leader, stands by, is granted leadership when that leader's node goes, reports it, and
 * resigns. It sends no request to a server, emits no event and logs nothing.
 *
 * Why: V8 compiles a function on its first call and runs it slowly until its inline caches
 * settle. Without a rehearsal, a process's first hand-over (a rolling deploy's, typically) pays
 * that on the path from the old leader's resignation to the new leader's report. V8 drops the
 * bytecode of functions left unused through many garbage collections, yet a standby put through
 * a few hundred full collections still gained from it (docs/benchmarks.md, "A fast first hand-over", has
 * the figures).
 *
 * `LeaderService` runs it once per process, once the module has an election after bootstrap
 * (option `election.warmUpHandOver`).
 * Rejects if the recipe did not lead or hand over as rehearsed, or took longer than
 * `REHEARSAL_TIMEOUT_MS`.
 */
export async function rehearseHandOver(options: { readonly trace?: (line: string) => void } = {}): Promise<void> {
  const clock = new RealTimeClock({ actor: 'successor', background: BACKGROUND });
  clock.tracer = options.trace; // the simulator's trace of every request and event (tests read it)
  const ensemble = new SimulatedEnsemble(clock, { serverIds: [1], latencyMs: [0, 0], applyDelayMs: [0, 0] });
  const connect = (actor: string) =>
    clock.as(actor, () => {
      const session = new ZkSession({ connectString: ensemble.connectString, sessionTimeoutMs: 10_000, connectTimeoutMs: REHEARSAL_TIMEOUT_MS, events: NO_EVENTS, binding: ensemble.binding });
      return session.connect().then(() => session);
    });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the rehearsal did not finish within ${REHEARSAL_TIMEOUT_MS} ms`)), REHEARSAL_TIMEOUT_MS);
    timer.unref();
  });
  const sessions: ZkSession[] = [];
  const stop = new AbortController();
  try {
    await Promise.race([
      (async () => {
        const [leader, successor] = await Promise.all([connect('leader'), connect('successor')]);
        sessions.push(leader, successor);
        for (let round = 0; round < REHEARSAL_ROUNDS; round++) await handOver(ensemble, leader, successor, stop.signal);
      })(),
      timedOut,
    ]);
  } finally {
    stop.abort();
    clearTimeout(timer);
    for (const session of sessions) session.close();
    clock.stop();
  }
}

/** One hand-over: from a node made by hand on `leader`'s session to an election on `successor`'s. */
async function handOver(ensemble: SimulatedEnsemble, leader: ZkSession, successor: ZkSession, stop: AbortSignal): Promise<void> {
  const election = new LeaderElection(successor, { root: '/rehearsal', name: 'hand-over', identity: 'rehearsal', events: NO_EVENTS });
  // Subscribed throughout, as an application is: both reports, true and false, go to a subscriber.
  let leading!: () => void;
  const led = new Promise<void>((resolve) => (leading = resolve));
  const subscription = election.isLeader$.subscribe((isLeader) => isLeader && leading());
  try {
    await ensurePath(leader, election.path, 'container');
    const head = await leader.create(queueNodePrefix(election.path, randomUUID(), 'n'), null, 'ephemeral_sequential');
    election.join();
    // Standing by once it watches the leader's node (its own node and the ready record are watched before that).
    while (!ensemble.isWatched(head)) {
      stop.throwIfAborted();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await leader.delete(head, -1);
    await led;
  } finally {
    await election.close();
    subscription.unsubscribe();
  }
  if (election.isLeader || election.isParticipating) throw new Error('the rehearsal ended still participating');
}

let rehearsal: Promise<void> | undefined;

/**
 * The process's one rehearsal: the first call starts it once the current I/O turn is over (so
 * that whatever asked for it goes first); every call returns its outcome.
 */
export function rehearseHandOverOnce(): Promise<void> {
  return (rehearsal ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => rehearseHandOver()));
}

/** The process's rehearsal, once started. */
export function handOverRehearsal(): Promise<void> | undefined {
  return rehearsal;
}
