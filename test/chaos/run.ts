/**
 * The chaos run (issue #6): a 3-node ZooKeeper ensemble on loopback, N worker processes looping a
 * guarded `@WithLock` section over a fenced counter and taking part in one election, and faults
 * injected one at a time; then a checker reads every log and verifies the invariants.
 *
 *   node build/test/chaos/run.js [--duration <s>=100] [--seed <n>] [--workers <n>=5]
 *                                [--session-timeout-ms <ms>=2000] [--server-ids <ids>=1,2,255]
 *                                [--faults <kind,...>=all] [--driver typescript|native] [--keep]
 *   node build/test/chaos/run.js --recheck <run dir>     (the checker again, on kept logs)
 *
 * Exit code 0 only when every violation count is 0 and every fault kind was injected. The run dir
 * (event logs, store log, counter, partitions.json, figures.json, server-side stderr) is removed after a clean run
 * unless `--keep`; after a failing run it is always kept and its path printed.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TcpProxy } from '../support/tcp-proxy.js';
import { withTimeout } from '../support/wait.js';
import { ZkEnsemble } from '../support/zk-server.js';
import { check, type CheckResult, type RunEnd } from './checker.js';
import { inspectEndState } from './end-state.js';
import { EventLog, FAULT_KINDS, readEventLog, type DriverEvent, type FaultKind, type StoreOp, type WorkerEvent } from './event-log.js';
import { FaultInjector, Rng } from './fault-injector.js';
import { FencedStore } from './fenced-store.js';
import { formatReport, passed, toJson, type RunReport } from './figures.js';
import { WorkerPool } from './worker-pool.js';
import { ZK_DRIVERS, type ZkDriver } from '../../src/zookeeper/open-session-handle.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '100' },
    seed: { type: 'string' },
    workers: { type: 'string', default: '5' },
    'session-timeout-ms': { type: 'string', default: '2000' },
    'server-ids': { type: 'string', default: '1,2,255' },
    faults: { type: 'string' },
    driver: { type: 'string', default: 'typescript' },
    keep: { type: 'boolean', default: false },
    recheck: { type: 'string' },
  },
});
if (args.recheck !== undefined) process.exit(recheck(args.recheck) ? 0 : 1);
// A subset of the kinds, to look at some faults alone (a run with a subset is no proof of the whole).
const kinds = args.faults === undefined ? undefined : (args.faults.split(',') as FaultKind[]);
const unknownKinds = kinds?.filter((kind) => !FAULT_KINDS.includes(kind)) ?? [];
if (unknownKinds.length > 0) throw new Error(`--faults: unknown kind(s) ${unknownKinds.join(', ')}; the kinds are ${FAULT_KINDS.join(', ')}`);
const durationS = Number(args.duration);
const seed = args.seed !== undefined ? Number(args.seed) : Math.floor(Math.random() * 2 ** 31);
const workers = Number(args.workers);
const sessionTimeoutMs = Number(args['session-timeout-ms']);
// Which client the workers speak through: the default, or the `zookeeper` package's C client (a shorter CI run).
const driver = args.driver as ZkDriver;
if (!ZK_DRIVERS.includes(driver)) throw new Error(`--driver must be one of ${ZK_DRIVERS.join(', ')}, got ${args.driver}`);
// 255 by default: that member's sessions have ids starting with `ff` (issue 14, S1).
const serverIds = args['server-ids'].split(',').map(Number);
if (serverIds.some((id) => !Number.isInteger(id) || id < 1 || id > 255)) throw new Error(`--server-ids must be ids 1-255 separated by commas, got ${args['server-ids']}`);
for (const [name, value] of Object.entries({ duration: durationS, seed, workers, 'session-timeout-ms': sessionTimeoutMs })) {
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer, got ${String(value)}`);
}

const started = Date.now();
const elapsedS = () => ((Date.now() - started) / 1000).toFixed(1);
const say = (line: string) => process.stdout.write(`[chaos ${elapsedS().padStart(6)}s] ${line}\n`);
/** Beyond this a wait, or the lock or leadership being free, means something is stuck. */
const stuckBoundMs = Math.max(30_000, 10 * sessionTimeoutMs);

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), `zk-chaos-${seed}-`));
const root = `/chaos-${randomUUID()}`;
say(`seed ${seed} (replay with --seed ${seed}), ${durationS} s of faults, ${workers} workers, session timeout ${sessionTimeoutMs} ms, ${driver} driver, run dir ${runDir}`);

const driverLog = new EventLog(path.join(runDir, 'driver.jsonl'));
const store = new FencedStore(path.join(runDir, 'counter'), new EventLog(path.join(runDir, 'store.jsonl')), path.join(runDir, 'partitions.json'));
let ensemble: ZkEnsemble | undefined;
const proxies: TcpProxy[][] = [];
let pool: WorkerPool | undefined;
process.on('exit', () => pool?.killAllSync());

async function main(): Promise<boolean> {
  // Quorum links through proxies, for the follower cut off from its leader (cut-follower).
  ensemble = await ZkEnsemble.start({ serverIds, heap: '256m', logLevel: 'WARN', quorumLinks: true });
  say(`ensemble up: ${ensemble.connectString} (server ids ${serverIds.join(', ')})`);
  for (let w = 1; w <= workers; w++) {
    proxies[w] = await Promise.all(ensemble.members.map((member) => TcpProxy.start('127.0.0.1', member.port)));
  }
  pool = new WorkerPool({
    runDir,
    script: path.join(path.dirname(fileURLToPath(import.meta.url)), 'chaos-worker.js'),
    connectFor: (w) => proxies[w]!.map((proxy) => proxy.connectString).join(','),
    root,
    sessionTimeoutMs,
    driver,
    store,
    log: driverLog,
  });
  // Every worker is forked before the driver opens any ZooKeeper session (it opens one only at the end).
  const first = Array.from({ length: workers }, (_, i) => pool!.spawn(i + 1));
  await withTimeout(Promise.all(first.map((incarnation) => incarnation.ready)), 60_000, 'the workers did not start within 60 s');
  say('workers up');

  const rng = new Rng(seed);
  const injector = new FaultInjector({ ensemble, serverIds, store, pool, proxies, sessionTimeoutMs, rng, log: driverLog, say });
  driverLog.write({ ev: 'phase', name: 'faults' });
  const faultsUntil = Date.now() + durationS * 1000;
  // Rounds over every kind in a shuffled order: every kind is injected at least once, however short the run.
  for (let round = 0; round === 0 || Date.now() < faultsUntil; round++) {
    for (const kind of rng.shuffle(kinds ?? FAULT_KINDS)) {
      if (round > 0 && Date.now() >= faultsUntil) break;
      await sleep(rng.int(2000, 5000));
      respawnDead(pool);
      await injector.inject(kind);
    }
  }

  // Quiet: long enough for a holder killed last to lose its session and be repaired.
  driverLog.write({ ev: 'phase', name: 'quiet' });
  await sleep(Math.max(3000, 1.5 * sessionTimeoutMs));
  respawnDead(pool);
  driverLog.write({ ev: 'phase', name: 'stopping' });
  say('stopping the workers');
  await pool.stopAll(Math.max(15_000, 5 * sessionTimeoutMs));
  const endState = await inspectEndState(ensemble.connectString, root, 2 * sessionTimeoutMs + 3000);

  say('checking the logs');
  const end: RunEnd = {
    ...endState,
    finalCounter: Number(fs.readFileSync(store.counterFile, 'utf8')),
    partitionCounters: JSON.parse(fs.readFileSync(store.partitionFile, 'utf8')) as Record<string, number>,
  };
  fs.writeFileSync(path.join(runDir, 'end.json'), JSON.stringify({ end, stuckBoundMs, faults: injector.counts, kinds }));
  const result = checkRunDir(runDir, end, stuckBoundMs, sessionTimeoutMs);
  const report: RunReport = { seed, durationS, workers, sessionTimeoutMs, wallClockS: Math.round((Date.now() - started) / 1000), faults: injector.counts, kinds, result };
  fs.writeFileSync(path.join(runDir, 'figures.json'), `${JSON.stringify(toJson(report), null, 2)}\n`);
  process.stdout.write(`${formatReport(report)}\n`);
  return passed(report);
}

function checkRunDir(dir: string, end: RunEnd, bound: number, sessionTimeout: number): CheckResult {
  const workerFiles = fs.readdirSync(dir).filter((file) => /^w\d+\.\d+\.jsonl$/.test(file));
  return check({
    workers: workerFiles.flatMap((file) => readEventLog<WorkerEvent>(path.join(dir, file))),
    store: readEventLog<StoreOp>(path.join(dir, 'store.jsonl')),
    driver: readEventLog<DriverEvent>(path.join(dir, 'driver.jsonl')),
    end,
    stuckBoundMs: bound,
    sessionTimeoutMs: sessionTimeout,
  });
}

/** `--recheck <dir>`: the checker again on a kept run dir (after changing the checker, or to read it). */
function recheck(dir: string): boolean {
  const saved = JSON.parse(fs.readFileSync(path.join(dir, 'end.json'), 'utf8')) as { end: RunEnd; stuckBoundMs: number; faults: Record<FaultKind, number>; kinds?: FaultKind[] };
  const figures = JSON.parse(fs.readFileSync(path.join(dir, 'figures.json'), 'utf8')) as { seed: number; durationS: number; workers: number; sessionTimeoutMs: number; wallClockS: number };
  const report: RunReport = { ...figures, faults: saved.faults, kinds: saved.kinds, result: checkRunDir(dir, saved.end, saved.stuckBoundMs, figures.sessionTimeoutMs) };
  process.stdout.write(`${formatReport(report)}\n`);
  return passed(report);
}

/** A worker that died on its own (a violation the checker reports) is replaced so the run goes on. */
function respawnDead(workerPool: WorkerPool): void {
  for (let w = 1; w <= workers; w++) {
    const incarnation = workerPool.slot(w);
    if (incarnation && !incarnation.alive && !incarnation.killed) {
      say(`w${w}.${incarnation.inc} died on its own; respawning`);
      workerPool.spawn(w);
    }
  }
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  say(`run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  pool?.killAllSync();
  await Promise.all(proxies.flat().map((proxy) => proxy.close()));
  await ensemble?.dispose();
  driverLog.close();
}
if (ok && !args.keep) fs.rmSync(runDir, { recursive: true, force: true });
else say(`${ok ? 'passed' : 'FAILED'}; logs kept in ${runDir}`);
say(ok ? 'passed' : 'FAILED');
process.exit(ok ? 0 : 1);
