/**
 * One worker of the chaos run (a child process of run.ts): a Nest app on the real ZkLockModule that
 * loops a guarded `@WithLock('counter', { recover: 'repair' })` section over the driver's fenced
 * counter, and takes part in the election `chaos` with a `@LeaderOnly` heartbeat fenced by the
 * leadership token. Everything it sees goes to its own event log (event-log.ts).
 *
 * Beside them, at modest rates, the other recipes (their holds are logged as the lock's are: the
 * library's `lock.*` events, tagged with the lock and the call they belong to, and the call's body):
 * - one in SET_EVERY turns of the counter loop is a `withLocks` call over a set of LOCK_SETS, most
 *   of them with the counter lock (a set reads the fenced counter with its token, no write), so that
 *   sets and the single sections contend for it;
 * - a read/write loop: `withReadLock` / `withWriteLock` (a quarter writes; a writer sometimes reads
 *   under its own write lock; some reads try once);
 * - a semaphore loop: `withSemaphore` for 1 or 2 of SEMAPHORE_PERMITS permits (some try once, some
 *   with a `waitMs`).
 * Their bodies linger like the section when the driver cuts or stops the worker (see `lingerUntil`).
 *
 * The partition workload (partition-workload.ts): the worker is a replica of the partition set
 * PARTITION_SET and loops `@ForEachOwnedPartition` runs over each owned partition's own fenced
 * counter, repaired by `@OnPartitionRecovery` as the counter's sections are.
 *
 * Cooperative revocation: a request loop asks, every REQUEST_PAUSE_MS, for a release of the counter
 * lock (`requestRelease`, whoever holds it: a section or a lock set) or, one time in
 * STEP_DOWN_EVERY, for a step-down of the election (`requestStepDown`); each request and its reply
 * (the node, identity and session it marked) are logged. WATCH_SHARE of the sections and of the
 * sets that hold the counter read `releaseRequested` (logged with their node and session, and so is
 * its abort) and work longer, in steps; asked, they end early at a safe point (see `increment`).
 * The other holders never read it, and must keep the lock until their call ends.
 *
 * The section deliberately does not look at `lock.signal` before writing: a holder that resumes
 * from a SIGSTOP, or that kept going while cut off, writes anyway, and the store's fencing is what
 * must refuse it. That is the case fencing tokens exist for.
 *
 *   node chaos-worker.js '<json WorkerConfig>'      (forked: needs the IPC channel)
 *
 * IPC in: `store-reply`, `linger` (see below), `oversize` / `block` (a fault to play inside the next
 * section, see below), `cancel` (forget a fault not played yet), `stop` (finish the current section,
 * close the app, exit 0).
 * IPC out: `ready`, `in-section` / `checkpointed` / `out-section` (the driver kills, stops or cuts it
 * inside a section), `recipe-held` / `recipe-free` (a set, read/write or semaphore body runs: the
 * driver prefers such a worker), `oversize-attempt` / `oversize-result` / `blocked` (how a fault went),
 * `leader` (current value), `store` requests.
 */
import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Module, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { LeaderOnly } from '../../src/decorators/leader-only.decorator.js';
import { OnLeaderRecovery } from '../../src/decorators/on-leader-recovery.decorator.js';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import { ZkLockEvents } from '../../src/observability/zk-lock-events.js';
import type { InterruptedSection, RecoverySuccessor } from '../../src/recipes/ready/ready-state.js';
import type { HeldLock } from '../../src/services/held-lock.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { COUNTER_KEY, ELECTION_KEY, ELECTION_NAME, LOCK_NAME, LOCK_SETS, lockKey, PARTITION_COUNT, PARTITION_SET, READ_WRITE_NAME, SEMAPHORE_NAME, SEMAPHORE_PERMITS, type WorkerConfig } from './chaos-names.js';
import { EventLog, type RecipeWhat, type RequestWhat } from './event-log.js';
import type { StoreReply } from './fenced-store.js';
import { PartitionWorker, WORKLOAD_IO, type WorkloadIo } from './partition-workload.js';
import { blockLoop, oversizeCheckpoint } from './worker-faults.js';
import { store, storeRead, storeReplied, storeWrite } from './worker-store.js';

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const log = new EventLog(config.logFile, { w: config.w, inc: config.inc });
/** Error name, with the ZooKeeper code for ZooKeeper errors (`ZooKeeperError:CONNECTIONLOSS`). */
const describe = (error: unknown) => {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { zkCode?: string }).zkCode;
  return code ? `${error.name}:${code}` : error.name;
};
const notify = (message: Record<string, unknown>) => process.send?.(message);
log.write({ ev: 'start', pid: process.pid });

/**
 * Set by the driver when it cuts off or stops this worker: until then, the section keeps working (a
 * store read every 50 ms, as long work would) for as long as its lease says the lock is held, so
 * that a loss signalled late shows as work overlapping the next holder's. The driver makes it last
 * a session timeout longer than the fault: the lease must say "lost" first.
 */
let lingerUntil = 0;

async function keepWorking(lock: HeldLock, token: string): Promise<void> {
  while (Date.now() < lingerUntil && !lock.signal.aborted && lock.lease.isHeld) {
    log.write({ ev: 'work', token });
    await storeRead(token);
    await sleep(50);
  }
}

/** Integer in [lo, hi]. */
const randomInt = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));
/** One in SET_EVERY turns of the counter loop is a lock set. */
const SET_EVERY = 6;
/** Pause between two requests of this worker (ms); one in STEP_DOWN_EVERY is a step-down, the others a release of the counter lock. */
const REQUEST_PAUSE_MS = [1000, 3000] as const;
const STEP_DOWN_EVERY = 10;
/** Share of the sections (and of the sets holding the counter) that read `releaseRequested`; of those asked after their checkpoint, the share that give up by throwing. */
const WATCH_SHARE = 1 / 3;
const ABANDON_SHARE = 1 / 4;
/** A watching section works this many 20 ms steps after its checkpoint; a watching set's body lasts this long (ms). */
const WATCHING_STEPS = [3, 12] as const;
const WATCHING_SET_MS = [60, 240] as const;

/**
 * Reads `lock.releaseRequested` (its first read arms the watch on the holder's node), logging that
 * with the node and session, and logs its abort. Returns the signal.
 */
function watchRelease(lock: HeldLock, call?: number): AbortSignal {
  const holder = { token: lock.fencingToken.toString(), lock: keyOf(lock), ...(call !== undefined && { call }), node: lock.lease.path, sessionId: lock.lease.sessionId };
  log.write({ ev: 'release-watch', ...holder });
  const asked = lock.releaseRequested;
  const seen = () => log.write({ ev: 'release-seen', ...holder, error: describe(asked.reason) });
  if (asked.aborted) seen();
  else asked.addEventListener('abort', seen, { once: true });
  return asked;
}

/**
 * A watching section's work after its checkpoint: `steps` steps of a store read and 20 ms, for as
 * long as its lease says it holds. True when it stopped early because it was asked to let go.
 */
async function workInSteps(lock: HeldLock, token: string, asked: AbortSignal, steps: number): Promise<boolean> {
  for (let i = 0; i < steps && lock.lease.isHeld; i++) {
    if (asked.aborted) return true;
    log.write({ ev: 'work', token });
    await storeRead(token);
    await sleep(20);
  }
  return asked.aborted;
}

/** The workload call (its id) that each lock is taken for right now: the library's events are tagged with it. */
const callFor = new Map<string, number>();
let nextCall = 1;
const keyOf = (lock: HeldLock) => lockKey(lock.kind === 'lock' ? 'lock' : lock.kind === 'semaphore' ? 'semaphore' : 'rw', lock.name);

/**
 * One call of the set, read/write or semaphore workload: logged from its start (`call`) to its end
 * (`call-done`), its grants tagged with its id. `invoke` gets the id and a way to say its fn ran.
 */
async function workloadCall(what: RecipeWhat, keys: string[], details: Record<string, unknown>, invoke: (id: number, ran: () => void) => Promise<unknown>): Promise<void> {
  const id = nextCall++;
  log.write({ ev: 'call', call: id, what, locks: keys, ...details });
  for (const key of keys) callFor.set(key, id);
  let ran = false;
  try {
    await invoke(id, () => (ran = true));
    log.write({ ev: 'call-done', call: id, ok: true, ran });
  } catch (error) {
    log.write({ ev: 'call-done', call: id, ok: false, ran, error: describe(error) });
    await sleep(randomInt(20, 50));
  } finally {
    for (const key of keys) callFor.delete(key);
  }
}

/**
 * The body of a workload call, holding `held`: `step` (if any) before and after a short pause, and
 * while the driver cuts or stops this worker, more steps for as long as every lease says it is
 * held (a loss signalled late shows as a hold overlapping another). With `asked` (a watched
 * `releaseRequested`), the pause goes in 20 ms steps and ends early once it aborts.
 */
async function holding(id: number, held: readonly HeldLock[], pauseMs: number, step?: () => Promise<void>, asked?: AbortSignal): Promise<void> {
  log.write({ ev: 'body', call: id, tokens: Object.fromEntries(held.map((lock) => [keyOf(lock), lock.fencingToken.toString()])), nodes: Object.fromEntries(held.map((lock) => [keyOf(lock), lock.lease.path])) });
  // The driver prefers to cut, stop or kill a worker that holds one of these beside its section.
  notify({ type: 'recipe-held', call: id, what: held.length > 1 || held[0]?.kind === 'lock' ? 'set' : held[0]?.kind });
  let failure: unknown;
  try {
    await step?.();
    if (asked) {
      const until = Date.now() + pauseMs;
      while (Date.now() < until && !asked.aborted) {
        log.write({ ev: 'body-work', call: id });
        await step?.();
        await sleep(20);
      }
      if (asked.aborted) log.write({ ev: 'early-end', call: id, step: 'set' });
    } else {
      await sleep(pauseMs);
    }
    while (Date.now() < lingerUntil && held.every((lock) => !lock.signal.aborted && lock.lease.isHeld)) {
      log.write({ ev: 'body-work', call: id });
      await step?.();
      await sleep(50);
    }
    await step?.();
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    log.write({ ev: 'body-end', call: id, ...(failure !== undefined && { error: describe(failure) }) });
    notify({ type: 'recipe-free', call: id });
  }
}

/** Faults the driver asked for, played once inside the next section, right after its checkpoint (worker-faults.ts). */
let oversizeBytes: number | undefined;
let block: { idleMs: number; blockMs: number } | undefined;
const faultIo = { log, notify, describe };

@Injectable()
class CounterWorker {
  constructor(private readonly locks: LockService) {}

  /**
   * One increment. A WATCH_SHARE of the sections read `releaseRequested` and then work longer, in
   * steps after the checkpoint; asked to let go, they end at a safe point: before the checkpoint,
   * with nothing done, they return (the section completes); after it, most skip the rest of their
   * work, write their increment and return, and ABANDON_SHARE throw the request's reason instead,
   * which leaves the section dirty: the next holder must repair the increment.
   */
  @WithLock(LOCK_NAME, { recover: 'repair' })
  async increment(): Promise<void> {
    const lock = this.locks.current(LOCK_NAME)!;
    const token = lock.fencingToken.toString();
    log.write({ ev: 'enter', token, node: lock.lease.path, sessionId: lock.lease.sessionId });
    notify({ type: 'in-section', token });
    const asked = Math.random() < WATCH_SHARE ? watchRelease(lock) : undefined;
    let failure: unknown;
    try {
      const v = await storeRead(token);
      if (asked?.aborted) {
        log.write({ ev: 'early-end', token, step: 'before-checkpoint' });
        return;
      }
      await lock.checkpoint({ v });
      log.write({ ev: 'checkpoint', token, v });
      notify({ type: 'checkpointed' });
      if (oversizeBytes !== undefined) {
        const bytes = oversizeBytes;
        oversizeBytes = undefined;
        await oversizeCheckpoint(faultIo, lock, token, v, bytes);
      }
      if (block) {
        const { idleMs, blockMs } = block;
        block = undefined;
        await blockLoop(faultIo, token, idleMs, blockMs);
        // Then keep working while the lease says it holds: a loss reported late shows as overlap.
        lingerUntil = Math.max(lingerUntil, Date.now() + config.sessionTimeoutMs);
      }
      await sleep(5 + Math.floor(Math.random() * 36)); // so that kills and stops land mid-section
      if (Date.now() < lingerUntil) await keepWorking(lock, token);
      if (asked && (await workInSteps(lock, token, asked, randomInt(...WATCHING_STEPS)))) {
        const abandon = Math.random() < ABANDON_SHARE;
        log.write({ ev: 'early-end', token, step: abandon ? 'abandoned' : 'after-checkpoint' });
        if (abandon) throw asked.reason;
      }
      await storeWrite(token, v, 'section');
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      log.write({ ev: 'exit', token, ...(failure !== undefined && { error: describe(failure) }) });
      notify({ type: 'out-section' });
    }
  }

  /**
   * A `withLocks` call over one of LOCK_SETS (caller order as listed; the library sorts it). With
   * the counter lock, its body reads the fenced counter with that lock's token, as a reader of the
   * data the lock guards would; sometimes with a `waitMs` for the whole set.
   */
  async lockSet(): Promise<void> {
    const names = LOCK_SETS[randomInt(0, LOCK_SETS.length - 1)]!;
    const waitMs = Math.random() < 0.2 ? 2000 : undefined;
    await workloadCall('set', names.map((name) => lockKey('lock', name)), waitMs === undefined ? {} : { waitMs }, (id, ran) =>
      this.locks.withLocks(
        names,
        (held) => {
          ran();
          const counter = held.find((lock) => lock.name === LOCK_NAME);
          const read = counter && (() => storeRead(counter.fencingToken.toString()).then(() => undefined));
          // Some sets that hold the counter lock look at release requests of it, and hold it longer.
          const asked = counter && Math.random() < WATCH_SHARE ? watchRelease(counter, id) : undefined;
          return holding(id, held, asked ? randomInt(...WATCHING_SET_MS) : randomInt(5, 40), read, asked);
        },
        { waitMs },
      ),
    );
  }

  /** Completes the interrupted increment once: only if the store still holds the value it checkpointed. */
  async repair(interrupted: InterruptedSection<{ v: number } | undefined>, successor: RecoverySuccessor): Promise<void> {
    const token = successor.token.toString();
    const victim = interrupted.token.toString();
    const checkpoint = interrupted.checkpoint?.v;
    log.write({ ev: 'recovering', token, interrupted: victim, checkpoint });
    try {
      const current = await storeRead(token);
      const repaired = checkpoint !== undefined && current === checkpoint;
      if (repaired) await storeWrite(token, checkpoint, 'repair', victim);
      log.write({ ev: 'recovered', token, interrupted: victim, checkpoint, repaired });
    } catch (error) {
      log.write({ ev: 'recover-failed', token, interrupted: victim, error: describe(error) });
      throw error;
    }
  }
}

@Injectable()
class Heartbeat {
  constructor(private readonly leader: LeaderService) {}

  @LeaderOnly()
  async beat(): Promise<void> {
    await store({ op: 'beat', token: this.leader.current()!.token.toString() });
  }

  @OnLeaderRecovery()
  recovered(interrupted: InterruptedSection, successor: RecoverySuccessor): void {
    log.write({ ev: 'leader-recovered', token: successor.token.toString(), interrupted: interrupted.token.toString() });
  }
}

/** Nest's warnings and errors go to stderr, which the driver keeps in the run dir. */
const stderrLogger: LoggerService = {
  log: () => undefined,
  warn: (message: unknown) => process.stderr.write(`[w${config.w}.${config.inc}] WARN ${String(message)}\n`),
  error: (message: unknown) => process.stderr.write(`[w${config.w}.${config.inc}] ERROR ${String(message)}\n`),
};

@Module({
  imports: [
    ZkLockModule.forRoot({
      connect: config.connect,
      root: config.root,
      sessionTimeoutMs: config.sessionTimeoutMs,
      driver: config.driver,
      connectTimeoutMs: 30_000,
      drainTimeoutMs: 2000,
      identity: `w${config.w}.${config.inc}`,
      election: { name: ELECTION_NAME },
      partitions: [{ name: PARTITION_SET, count: PARTITION_COUNT }],
    }),
  ],
  providers: [CounterWorker, Heartbeat, PartitionWorker, { provide: WORKLOAD_IO, useValue: { log, describe, lingerUntil: () => lingerUntil } satisfies WorkloadIo }],
})
class WorkerModule {}

let stopping = false;
process.on('message', (message: { type: string; id?: number }) => {
  if (message.type === 'store-reply') {
    storeReplied(message as StoreReply);
  } else if (message.type === 'linger') {
    lingerUntil = Date.now() + (message as { ms?: number }).ms!;
  } else if (message.type === 'oversize') {
    oversizeBytes = (message as { bytes?: number }).bytes!;
  } else if (message.type === 'block') {
    block = message as unknown as { idleMs: number; blockMs: number };
  } else if (message.type === 'cancel') {
    oversizeBytes = undefined;
    block = undefined;
  } else if (message.type === 'stop') {
    stopping = true;
  }
});
const onDriverGone = () => process.exit(2);
process.on('disconnect', onDriverGone);
process.on('unhandledRejection', (error) => {
  log.write({ ev: 'error', where: 'unhandledRejection', error: describe(error) });
  process.exit(1);
});

const app = await NestFactory.createApplicationContext(WorkerModule, { logger: stderrLogger });
const session = app.get(ZkSession);
session.state$.subscribe((change) => log.write({ ev: 'session', state: change.state, sessionId: change.sessionId }));
// Emitted in the same synchronous call as each `isLeader$` value (LeaderElection.report), with its token.
// Lock events name their lock's directory: logged as its key, with the workload call it is taken for.
const tag = (path: string) => {
  const lock = path.slice(config.root.length + 1);
  const call = callFor.get(lock);
  return call === undefined ? { lock } : { lock, call };
};
// The partition set's own locks and assigner election report to the same stream: the partition
// workload logs what it owns itself (partition-workload.ts), and the rules of the counter lock and
// the election `chaos` must not take those for theirs.
const partitionsDir = `${config.root}/partitions/`;
app.get(ZkLockEvents).events$.subscribe((event) => {
  if ('path' in event && typeof event.path === 'string' && event.path.startsWith(partitionsDir)) return;
  switch (event.type) {
    case 'lock.acquired':
      return log.write({ ev: 'acquired', token: event.token, ...tag(event.path) });
    case 'lock.lost':
      return log.write({ ev: 'lost', token: event.token, reason: event.reason, ...tag(event.path) });
    case 'lock.released':
      return log.write({ ev: 'released', token: event.token, ...tag(event.path) });
    case 'leadership.gained':
      notify({ type: 'leader', value: true });
      return log.write({ ev: 'leader', value: true, token: event.token });
    case 'leadership.lost':
      notify({ type: 'leader', value: false });
      return log.write({ ev: 'leader', value: false, token: event.token, reason: event.reason });
    case 'leadership.step-down':
      return log.write({ ev: 'step-down', token: event.token, sessionId: session.sessionId });
  }
});
app.get(PartitionWorker).watchOwnership();
const leader = app.get(LeaderService);
if (leader.isLeader) log.write({ ev: 'leader', value: true, token: leader.token }); // led before we subscribed
log.write({ ev: 'ready', sessionId: session.sessionId ?? '' });
notify({ type: 'ready' });

const counter = app.get(CounterWorker);
const heartbeat = app.get(Heartbeat);
const locks = app.get(LockService);
let turn = 0;
const lockLoop = (async () => {
  while (!stopping) {
    if (++turn % SET_EVERY === 0) {
      await counter.lockSet();
      continue;
    }
    log.write({ ev: 'want' });
    try {
      await counter.increment();
      log.write({ ev: 'done', ok: true });
    } catch (error) {
      log.write({ ev: 'done', ok: false, error: describe(error) });
      await sleep(20 + Math.floor(Math.random() * 30));
    }
    await sleep(Math.floor(Math.random() * 10));
  }
})();
/** Read/write: a quarter of the calls write (sometimes reading under the write lock); a tenth of the reads try once. */
const readWriteLoop = (async () => {
  const key = lockKey('rw', READ_WRITE_NAME);
  while (!stopping) {
    const mode = Math.random() < 0.25 ? 'write' : 'read';
    const onBusy = mode === 'read' && Math.random() < 0.1 ? ('skip' as const) : undefined;
    await workloadCall(mode, [key], onBusy ? { onBusy } : {}, (id, ran) => {
      const body = (held: HeldLock) => {
        ran();
        // A writer may read under its own write lock: re-entered, no other grant.
        const reread = mode === 'write' && Math.random() < 0.3 ? () => locks.withReadLock(READ_WRITE_NAME, () => log.write({ ev: 'body-work', call: id })) : undefined;
        return holding(id, [held], randomInt(10, 50), reread);
      };
      return mode === 'read' ? locks.withReadLock(READ_WRITE_NAME, body, { onBusy }) : locks.withWriteLock(READ_WRITE_NAME, body);
    });
    await sleep(randomInt(30, 150));
  }
})();
/** Semaphore: 1 or 2 of its permits (three in ten take 2); a tenth try once, a tenth wait at most 1.5 s. */
const semaphoreLoop = (async () => {
  const key = lockKey('semaphore', SEMAPHORE_NAME);
  while (!stopping) {
    const take = Math.random() < 0.3 ? 2 : 1;
    const choice = Math.random();
    const onBusy = choice < 0.1 ? ('skip' as const) : undefined;
    const waitMs = choice >= 0.1 && choice < 0.2 ? 1500 : undefined;
    const options = { permits: SEMAPHORE_PERMITS, take, ...(onBusy && { onBusy }), ...(waitMs !== undefined && { waitMs }) };
    await workloadCall('semaphore', [key], options, (id, ran) =>
      locks.withSemaphore(SEMAPHORE_NAME, options, (held) => {
        ran();
        return holding(id, [held], randomInt(20, 80));
      }),
    );
    await sleep(randomInt(30, 150));
  }
})();
/**
 * Requests: every REQUEST_PAUSE_MS, a release of the counter lock or (one in STEP_DOWN_EVERY) a
 * step-down of the election, whoever holds or leads (this worker too). Logged before it is sent
 * (a mark may land although the reply never comes) and with its reply.
 */
let nextRequest = 1;
const requestLoop = (async () => {
  while (!stopping) {
    await sleep(randomInt(...REQUEST_PAUSE_MS));
    if (stopping) break;
    const what: RequestWhat = randomInt(1, STEP_DOWN_EVERY) === 1 ? 'step-down' : 'release';
    const req = nextRequest++;
    log.write({ ev: 'request', req, what, target: what === 'release' ? COUNTER_KEY : ELECTION_KEY });
    try {
      const reply = what === 'release' ? await locks.requestRelease(LOCK_NAME) : await leader.requestStepDown();
      const { requested } = reply;
      log.write({ ev: 'request-done', req, requested, ...(reply.requested ? { node: reply.node, identity: reply.identity, sessionId: reply.sessionId, repeated: reply.repeated } : { reason: reply.reason }) });
    } catch (error) {
      log.write({ ev: 'request-done', req, error: describe(error) });
    }
  }
})();
/**
 * The partition workload (partition-workload.ts): a tick over the owned partitions, then a pause
 * (each run is three ZooKeeper writes: a tick every 100-250 ms keeps the load beside the others modest).
 */
const partitionWorker = app.get(PartitionWorker);
const partitionLoop = (async () => {
  while (!stopping) {
    await partitionWorker.tick();
    await sleep(randomInt(100, 250));
  }
})();
const beatLoop = (async () => {
  while (!stopping) {
    try {
      await heartbeat.beat();
    } catch (error) {
      // Losing leadership mid-beat is what faults do; anything else is worth a line in the figures.
      if (describe(error) !== 'LeadershipLostError') log.write({ ev: 'error', where: `beat:${describe(error)}`, error: String(error) });
    }
    await sleep(50 + Math.floor(Math.random() * 50));
  }
})();

await Promise.all([lockLoop, readWriteLoop, semaphoreLoop, requestLoop, partitionLoop, beatLoop]);
log.write({ ev: 'stopping' });
await app.close();
log.write({ ev: 'closed' });
notify({ type: 'closed' });
process.off('disconnect', onDriverGone);
process.disconnect(); // nothing else keeps us alive: a handle the app left open shows as a worker that does not exit
