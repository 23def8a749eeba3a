/**
 * W9: partitioned leadership (issue 33). 64 partitions of one `PartitionSet`, per trial on a
 * fresh root `/bench/w9[-native]/t<k>`:
 * 1. three replicas A, B, C (in this process, a session each) start: time until balanced;
 * 2. a fourth, D, joins (a process of its own, `w9-replica.js`): time from its `start()` until
 *    balanced again, the partitions that changed owner (goal: exactly the minimum, 16 of 64), and
 *    the server's requests and notifications meanwhile;
 * 3. C leaves gracefully (`close()`): time until every partition is owned again (goal: under
 *    50 ms, there is no running work to drain), and until balanced;
 * 4. D is SIGKILLed: time from the kill, and from the server's expiry of its session (its member
 *    node's deletion, seen through a watch), until every partition is owned again (goal: the
 *    session timeout plus under 100 ms, i.e. expiry to owned under 100 ms).
 * "Owned" is what each replica's `owned$` says (a lease held); "balanced": every partition owned by
 * exactly one live replica, each owning ⌊64/M⌋ or ⌈64/M⌉. Times are epoch µs stamped where the
 * event happened (D stamps its own lines).
 */
import path from 'node:path';
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PartitionSet, type ZkSession } from '../src/index.js';
import { movedPartitions } from '../src/recipes/partition/assignment.js';
import { serverDelta } from './mntr.js';
import { IMPL, implVersion } from './params.js';
import { epochMicros, median, round3 } from './stats.js';
import { openSession } from './session.js';
import { runWorkload, sleep, withTimeout } from './workload-main.js';

const SET = 'w9';
const STEP_TIMEOUT_MS = 30_000;
const REPLICA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'w9-replica.js');

/** What each replica owns, as last reported, and who is still counted as a member. */
class Ownership {
  private readonly owned = new Map<string, { at: number; partitions: readonly number[] }>();
  private readonly checks = new Set<() => void>();

  constructor(private readonly count: number) {}

  report(replica: string, at: number, partitions: readonly number[]): void {
    this.owned.set(replica, { at, partitions });
    for (const check of [...this.checks]) check();
  }

  /** Partition → its one owner among `live`; null where none or several of them claim it. */
  owners(live: readonly string[]): (string | null)[] {
    const claims: string[][] = Array.from({ length: this.count }, () => []);
    for (const replica of live) for (const k of this.owned.get(replica)?.partitions ?? []) claims[k]!.push(replica);
    return claims.map((c) => (c.length === 1 ? c[0]! : null));
  }

  allOwned(live: readonly string[]): boolean {
    return this.owners(live).every((owner) => owner !== null);
  }

  balanced(live: readonly string[]): boolean {
    const low = Math.floor(this.count / live.length);
    const high = Math.ceil(this.count / live.length);
    return this.allOwned(live) && live.every((replica) => {
      const n = this.owned.get(replica)?.partitions.length ?? 0;
      return n >= low && n <= high;
    });
  }

  /** Resolves with the epoch µs of the report that made `holds(live)` true (the latest among `live`'s). */
  when(holds: (live: readonly string[]) => boolean, live: readonly string[], what: string): Promise<number> {
    return withTimeout(new Promise<number>((resolve) => {
      const check = () => {
        if (!holds(live)) return;
        this.checks.delete(check);
        resolve(Math.max(...live.map((replica) => this.owned.get(replica)?.at ?? 0)));
      };
      this.checks.add(check);
      check();
    }), STEP_TIMEOUT_MS, () => `${what}: owners ${JSON.stringify(live.map((r) => [r, this.owned.get(r)?.partitions.length ?? 0]))}`);
  }
}

interface TrialResult {
  start_balanced_ms: number;
  join: { balanced_ms: number; moved: number; server: ReturnType<typeof serverDelta> };
  graceful_leave: { owned_ms: number; balanced_ms: number; moved: number };
  crash: { kill_to_owned_ms: number; expiry_to_owned_ms: number; kill_to_expiry_ms: number };
}

const ms = (fromMicros: number, toMicros: number) => round3((toMicros - fromMicros) / 1000);

runWorkload('W9', async ({ connect, driver, params, probe, log }) => {
  const count = params.w9_partitions;
  const timeoutMs = params.w9_session_timeout_ms;
  const base = driver === 'typescript' ? '/bench/w9' : '/bench/w9-native';
  const observer = await openSession(connect, timeoutMs, driver);
  const trials: TrialResult[] = [];
  try {
    for (let trial = 0; trial < params.w9_trials; trial++) {
      trials.push(await runTrial(`${base}/t${trial}-${Date.now()}`));
      log(`trial ${trial}: ${JSON.stringify(trials[trial])}`);
    }
  } finally {
    observer.close();
  }
  const figure = (pick: (t: TrialResult) => number) => round3(median(trials.map(pick)));
  return {
    impl: IMPL,
    driver,
    impl_version: implVersion(),
    recipe: 'PartitionSet: a fair lock per partition, a sticky even assignment written by the set\'s elected assigner',
    partitions: count,
    session_timeout_ms: timeoutMs,
    trials: trials.length,
    join_to_balanced_ms: figure((t) => t.join.balanced_ms),
    join_moved: figure((t) => t.join.moved),
    join_minimum_moves: count / 4,
    join_requests: figure((t) => t.join.server.requests),
    leave_to_owned_ms: figure((t) => t.graceful_leave.owned_ms),
    leave_moved: figure((t) => t.graceful_leave.moved),
    crash_kill_to_owned_ms: figure((t) => t.crash.kill_to_owned_ms),
    crash_expiry_to_owned_ms: figure((t) => t.crash.expiry_to_owned_ms),
    per_trial: trials,
  };

  async function runTrial(root: string): Promise<TrialResult> {
    const ownership = new Ownership(count);
    const sessions: ZkSession[] = [];
    const sets = new Map<string, PartitionSet>();
    const logger = { warn: (m: string) => log(`warn: ${m}`), error: (m: string) => log(`error: ${m}`) };
    let d: ReturnType<typeof spawnReplica> | undefined;
    try {
      // 1. Three replicas in this process.
      const started = epochMicros();
      for (const id of ['A', 'B', 'C']) {
        const session = await openSession(connect, timeoutMs, driver);
        sessions.push(session);
        const set = new PartitionSet(session, { root, name: SET, count, identity: id, logger });
        set.owned$.subscribe((owned) => ownership.report(id, epochMicros(), owned));
        sets.set(id, set);
        set.start();
      }
      const startBalanced = await ownership.when((live) => ownership.balanced(live), ['A', 'B', 'C'], 'three replicas balanced');
      const ownersOfThree = ownership.owners(['A', 'B', 'C']);

      // 2. D joins from a process of its own.
      const s0 = await probe.snapshot();
      d = spawnReplica(root, ownership);
      const joined = await withTimeout(d.joined, STEP_TIMEOUT_MS, 'D joined');
      const joinBalanced = await ownership.when((live) => ownership.balanced(live), ['A', 'B', 'C', 'D'], 'four replicas balanced');
      const s1 = await probe.snapshot();
      const ownersOfFour = ownership.owners(['A', 'B', 'C', 'D']);

      // 3. C leaves gracefully.
      const leaving = epochMicros();
      const closing = sets.get('C')!.close();
      const afterLeave = ['A', 'B', 'D'];
      const leaveOwned = await ownership.when((live) => ownership.allOwned(live), afterLeave, 'owned again after C left');
      const leaveBalanced = await ownership.when((live) => ownership.balanced(live), afterLeave, 'balanced after C left');
      await closing;
      const ownersAfterLeave = ownership.owners(afterLeave);

      // 4. D is SIGKILLed; its member node goes when the server expires its session.
      const memberPath = `${sets.get('A')!.path}/members/${await withTimeout(d.member, STEP_TIMEOUT_MS, 'D member name')}`;
      const expired = new Promise<number>((resolve, reject) => {
        observer.exists(memberPath, () => resolve(epochMicros())).then((stat) => stat || reject(new Error(`D's member node ${memberPath} is missing`)), reject);
      });
      await sleep(50); // the watch is set before the kill
      const killed = epochMicros();
      d.kill();
      const expiredAt = await withTimeout(expired, STEP_TIMEOUT_MS, 'D expired');
      const crashOwned = await ownership.when((live) => ownership.allOwned(live), ['A', 'B'], 'owned again after D was killed');
      return {
        start_balanced_ms: ms(started, startBalanced),
        join: { balanced_ms: ms(joined, joinBalanced), moved: movedPartitions(ownersOfThree, ownersOfFour).length, server: serverDelta(s0, s1) },
        graceful_leave: { owned_ms: ms(leaving, leaveOwned), balanced_ms: ms(leaving, leaveBalanced), moved: movedPartitions(ownersOfFour, ownersAfterLeave).length },
        crash: { kill_to_owned_ms: ms(killed, crashOwned), expiry_to_owned_ms: ms(expiredAt, crashOwned), kill_to_expiry_ms: ms(killed, expiredAt) },
      };
    } finally {
      d?.kill();
      for (const set of sets.values()) await set.close();
      for (const session of sessions) session.close();
    }
  }

  /** D: a replica in its own process, its `OWNED` lines reported to `ownership`. */
  function spawnReplica(root: string, ownership: Ownership) {
    const child = spawn(process.execPath, [REPLICA, '--connect', connect, '--root', root, '--set', SET, '--count', String(count), '--id', 'D', '--session-timeout-ms', String(timeoutMs), '--driver', driver], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => undefined); // a killed process: EPIPE is expected
    readline.createInterface({ input: child.stderr }).on('line', (line) => log(`[D] ${line}`));
    let member: (name: string) => void;
    let joined: (at: number) => void;
    const lines = readline.createInterface({ input: child.stdout });
    const replica = {
      member: new Promise<string>((resolve) => (member = resolve)),
      joined: new Promise<number>((resolve) => (joined = resolve)),
      kill: () => child.kill('SIGKILL'),
    };
    lines.on('line', (line) => {
      const [event, at, name, partitions] = line.split(' ');
      if (event === 'JOINED') joined(Number(at));
      if (event !== 'OWNED') return log(`[D] stdout: ${line}`);
      if (name && name !== '-') member(name);
      ownership.report('D', Number(at), partitions ? partitions.split(',').map(Number) : []);
    });
    return replica;
  }
});
