import { randomUUID } from 'node:crypto';
import type { Observable } from 'rxjs';
import type { EventSink } from '../../observability/event-sink.js';
import { InMemoryZooKeeper } from '../../zookeeper/in-memory-zookeeper.js';
import type { ZkSessionClient } from '../../zookeeper/zk-session-client.js';
import { ensurePath } from '../queue/ensure-path.js';
import type { LeadershipEventsByChannel } from './leadership-events.js';
import { queueNodePrefix } from '../queue/queue-node.js';

/** What the rehearsal does with an election (`LeaderElection` has it; naming only this keeps the two files apart). */
export interface RehearsedElection {
  readonly path: string;
  readonly isLeader$: Observable<boolean>;
  readonly isLeader: boolean;
  readonly isParticipating: boolean;
  join(): void;
  close(): Promise<void>;
}

/** A participant of the election recipe on `session`, reporting nothing anywhere. */
export type RehearsalParticipant = (session: ZkSessionClient, events: EventSink<LeadershipEventsByChannel>) => RehearsedElection;

/** Far above what the rehearsal takes (a few ms, cold): reached only if the recipe hangs. */
const REHEARSAL_TIMEOUT_MS = 5_000;

/**
 * Hand-overs per rehearsal. The first compiles the code; V8 gives a function the feedback its
 * property accesses run fast on only from about its eighth call, and the next few rounds (about
 * 1 ms each) bring the path's slowest step, the take-over's chain of promises, from about 0.12 to
 * 0.03 ms on the bench machine.
 */
const REHEARSAL_ROUNDS = 3;

const NO_EVENTS: EventSink<LeadershipEventsByChannel> = { wants: () => false, emit() {} };

/**
 * Runs one hand-over of leadership through the election's own code on an in-memory ZooKeeper:
 * the participant joins behind a leader, stands by, is granted leadership when that leader's node
 * goes, reports it, and resigns, deleting its node.
 *
 * Why: V8 compiles a function on its first call and runs it slowly until its inline caches
 * settle. Without a rehearsal, a process's first hand-over (a rolling deploy's, typically) pays
 * that on the path from the old leader's resignation to the new leader's report, about 1 ms on
 * the bench machine, as much as the hand-over itself. After it, that path runs compiled code.
 * It sends no request to a server, emits no event and logs nothing. (V8 may drop the bytecode
 * of a function unused through many garbage collections; a process that stands by for long may
 * then pay part of that again.)
 *
 * Rejects if the recipe did not lead or hand over as rehearsed, or ran longer than `REHEARSAL_TIMEOUT_MS`.
 */
export async function rehearseHandOver(participant: RehearsalParticipant, zk = new InMemoryZooKeeper()): Promise<void> {
  const leader = zk.connect();
  const election = participant(zk.connect(), NO_EVENTS);
  // Subscribed throughout, as an application is: both reports, true and false, go to a subscriber.
  let leading!: () => void;
  const led = new Promise<void>((resolve) => (leading = resolve));
  const subscription = election.isLeader$.subscribe((isLeader) => isLeader && leading());
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the rehearsal did not finish within ${REHEARSAL_TIMEOUT_MS} ms`)), REHEARSAL_TIMEOUT_MS);
    timer.unref();
  });
  try {
    await Promise.race([handOver(zk, leader, election, led), timedOut]);
  } finally {
    clearTimeout(timer);
    await election.close();
    subscription.unsubscribe();
  }
  if (election.isLeader || election.isParticipating) throw new Error('the rehearsal ended still participating');
}

async function handOver(zk: InMemoryZooKeeper, leader: ZkSessionClient, election: RehearsedElection, led: Promise<void>): Promise<void> {
  await ensurePath(leader, election.path, 'container');
  const head = await leader.create(queueNodePrefix(election.path, randomUUID(), 'n'), null, 'ephemeral_sequential');
  // Standing by once it watches the leader's node: its own node and the ready record are watched before that.
  const standingBy = zk.watched(head);
  election.join();
  await standingBy;
  await leader.delete(head, -1);
  await led;
}

let rehearsal: Promise<void> | undefined;

/**
 * The process's one rehearsal: the first call starts it once the current I/O turn is over (so
 * that the requests of the join that asked for it go out first); every call returns its outcome.
 */
export function rehearseHandOverOnce(participant: RehearsalParticipant): Promise<void> {
  return (rehearsal ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
    for (let round = 0; round < REHEARSAL_ROUNDS; round++) await rehearseHandOver(participant);
  }));
}
