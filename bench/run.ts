/**
 * `npm run bench`: BENCHMARKS.md's workloads against a throwaway ZooKeeper started here.
 *
 *   node build/bench/run.js [--quick] [--only W1,W3,SCALE] [--server-warmup CYCLES]
 *
 * The library's workloads run once per driver (`--driver typescript`, then `native`), W5 on each
 * raw client, one after the other on the same server, so the two can be compared within a run;
 * the speed workloads of that comparison (W1, W2, W5, W6) in rounds of both, see `schedule`.
 * Each workload runs in a fresh Node process (1 s pause between), which prints one JSON object
 * on the last line of its stdout; its stderr goes to bench/results/logs/<timestamp>/ and, but for
 * W4's participant lines, to ours. The document is printed, written to
 * bench/results/<timestamp>.json, and summarized in a table.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LockClient, ZkSession, ZooKeeperError } from '../src/index.js';
import { buildCurator, CURATOR_WORKLOADS, curatorRoot, type CuratorBuild } from './curator-build.js';
import { floorKey } from './floor-client.js';
import { MntrProbe } from './mntr.js';
import { connectRaw, RAW_EPHEMERAL_SEQUENTIAL, rawCycle, type RawZooKeeper } from './raw-zookeeper.js';
import { benchParams, driverRoot, DRIVERS, IMPL, libraryKey, type BenchDriver } from './params.js';
import { describeServer, javaVersion, pythonVersion, startBenchServer } from './server.js';
import { round3 } from './stats.js';
import { resultTable } from './table.js';
import { parseArgs, sleep } from './workload-main.js';

const HERE = path.dirname(fileURLToPath(import.meta.url)); // build/bench
const BENCH_DIR = path.resolve(HERE, '..', '..', 'bench');

interface Workload {
  key: string;
  file: string;
  /** Key of the result inside `workloads.<key>`. */
  impl: string;
  /** The client it runs on (`--driver`, but for W4's participants); the bare-client workloads (W4's, LOOP) have none. */
  driver?: BenchDriver;
  timeoutMs: number;
  nodeArgs?: string[];
  args?: string[];
  /** One of the driver comparison's speed workloads: run in `driver_rounds` rounds (see `schedule`). */
  rounds?: true;
  /** A peer's program (curator-peer.ts), run only when it could be built (curator-build.ts). */
  peer?: 'curator';
}

/** The library's workload on each driver, side by side (the default driver first), and W5's floor on each client. */
const perDriver = (w: Omit<Workload, 'impl' | 'driver'>, key: (driver: BenchDriver) => string = libraryKey): Workload[] =>
  DRIVERS.map((driver) => ({ ...w, impl: key(driver), driver, args: [...(w.args ?? []), '--driver', driver] }));

/** Curator on the same workload (bench/peers/CuratorBench.java), key `curator`, in the library's rounds where it has them. */
const curator = (w: Omit<Workload, 'impl' | 'file' | 'args'>): Workload => ({ ...w, file: 'curator-peer.js', impl: 'curator', peer: 'curator', args: ['--workload', w.key] });

const WORKLOADS: Workload[] = [
  ...perDriver({ key: 'W1', file: 'w1-uncontended.js', timeoutMs: 120_000, rounds: true }),
  curator({ key: 'W1', timeoutMs: 120_000, rounds: true }),
  // W1 with digest auth and a creator-only ACL on every node (see w1-uncontended.ts).
  ...perDriver({ key: 'W1A', file: 'w1-uncontended.js', timeoutMs: 120_000, args: ['--auth'] }),
  curator({ key: 'W1A', timeoutMs: 120_000 }),
  ...perDriver({ key: 'W2', file: 'w2-contended.js', timeoutMs: 180_000, rounds: true }),
  curator({ key: 'W2', timeoutMs: 180_000, rounds: true }),
  ...perDriver({ key: 'W3', file: 'w3-herd.js', timeoutMs: 180_000 }),
  // W4's participants use the module at its default driver; the result says so.
  { key: 'W4', file: 'w4-failover.js', impl: IMPL, driver: 'typescript', timeoutMs: 240_000 },
  { key: 'W4', file: 'w4-failover.js', impl: 'node-zookeeper', args: ['--impl', 'node-zookeeper'], timeoutMs: 120_000 },
  { key: 'W4', file: 'w4-failover.js', impl: 'node-zookeeper-relisting', args: ['--impl', 'node-zookeeper-relisting'], timeoutMs: 120_000 },
  ...perDriver({ key: 'W5', file: 'w5-raw-floor.js', timeoutMs: 120_000, rounds: true }, floorKey),
  ...perDriver({ key: 'W6', file: 'w6-per-entity.js', timeoutMs: 300_000, rounds: true }),
  ...perDriver({ key: 'W7', file: 'w7-read-write.js', timeoutMs: 120_000 }),
  curator({ key: 'W7', timeoutMs: 120_000 }),
  ...perDriver({ key: 'W8', file: 'w8-semaphore.js', timeoutMs: 150_000 }),
  curator({ key: 'W8', timeoutMs: 150_000 }),
  ...perDriver({ key: 'W9', file: 'w9-partitions.js', timeoutMs: 180_000 }),
  { key: 'LOOP', file: 'loop-floor.js', impl: 'node-zookeeper', timeoutMs: 240_000 },
  ...perDriver({ key: 'SCALE', file: 'scale.js', timeoutMs: 120_000, nodeArgs: ['--expose-gc'] }),
];

/**
 * The run order: every selected workload once, but the speed workloads (`rounds`) `rounds` times,
 * the drivers' order reversed every other round. The server and the machine drift over a run (a
 * JVM still compiling, a neighbour's load); adjacent passes in alternating order meet the same
 * drift, so the median of each figure over the rounds compares the drivers and not the moment.
 */
function schedule(selected: readonly string[], rounds: number): Workload[] {
  const order: Workload[] = [];
  for (const key of [...new Set(WORKLOADS.map((w) => w.key))].filter((k) => selected.includes(k))) {
    const group = WORKLOADS.filter((w) => w.key === key);
    const repeat = group.some((w) => w.rounds) ? rounds : 1;
    for (let round = 0; round < repeat; round++) order.push(...(round % 2 ? [...group].reverse() : group));
  }
  return order;
}

function timestamp(date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/** Runs one workload process; resolves with its last stdout line parsed, or `{ error }`. */
function runWorkloadProcess(w: Workload, connect: string, quick: boolean, logDir: string, round?: number, peerArgs: string[] = []): Promise<Record<string, unknown>> {
  const args = [...(w.nodeArgs ?? []), path.join(HERE, w.file), '--connect', connect, ...(w.args ?? []), ...peerArgs, ...(quick ? ['--quick'] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const name = `${w.impl === IMPL ? w.key : `${w.key}.${w.impl}`}${round ? `.round${round}` : ''}`;
  const stderrLog = fs.createWriteStream(path.join(logDir, `${name}.stderr.log`));
  const stdout: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderrLog.write(chunk));
  // The terminal gets the workload's own lines; those of its sub-processes (W4's participants,
  // `W4: [p0] ...`) only go to the log.
  readline.createInterface({ input: child.stderr }).on('line', (line) => {
    if (!/^\S+: \[p\d+\] /.test(line)) process.stderr.write(`${line}\n`);
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      process.stderr.write(`bench: ${w.key} exceeded ${w.timeoutMs} ms, killing pid ${child.pid}\n`);
      child.kill('SIGKILL');
    }, w.timeoutMs);
    child.on('error', (error) => process.stderr.write(`bench: ${w.key}: ${error.message}\n`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      stderrLog.end();
      const text = Buffer.concat(stdout).toString('utf8');
      fs.writeFileSync(path.join(logDir, `${name}.stdout.log`), text);
      const last = text.trimEnd().split('\n').pop() ?? '';
      try {
        const parsed = JSON.parse(last) as Record<string, unknown>;
        if (parsed && typeof parsed === 'object') return resolve(parsed);
      } catch { /* reported below */ }
      resolve({ error: `${w.key} printed no JSON result (exit ${code ?? signal})` });
    });
  });
}

/**
 * Creates the persistent nodes every workload expects (/bench, /bench/w1 … /bench/w8,
 * /bench/w6-native … /bench/w8-native, and Curator's /bench/curator-w1 … -w8), then
 * warms the server up. A fresh JVM runs its request path interpreted or with early JIT code, so
 * without this whichever workload comes first pays for it (measured: W1 p50 1.4 ms on a cold
 * server, 0.45 ms once warm). Both patterns the W1/W5 comparison rests on are warmed equally,
 * side by side: the library's lock cycle (root /bench/warmup) and W5's raw cycle
 * (/bench/warmup/raw), `cycles / 2` each. Not measured; every workload snapshots later.
 */
async function prepareServer(connect: string, cycles: number): Promise<number> {
  const started = Date.now();
  const session = new ZkSession({ connectString: connect, sessionTimeoutMs: 30_000, connectTimeoutMs: 15_000 });
  let raw: RawZooKeeper | undefined;
  try {
    await session.connect();
    // The native driver's roots of W6–W8 too (`driverRoot`), so that both passes find the same nodes in place.
    const nativeRoots = ['/bench/w6', '/bench/w7', '/bench/w8'].map((root) => driverRoot(root, 'native'));
    const curatorRoots = CURATOR_WORKLOADS.map(curatorRoot);
    for (const p of ['/bench', '/bench/w1', '/bench/w1a', '/bench/w2', '/bench/w3', '/bench/w4', '/bench/w5', '/bench/w6', '/bench/w7', '/bench/w8', ...nativeRoots, ...curatorRoots, '/bench/warmup', '/bench/warmup/raw']) {
      await session.create(p, null, 'persistent').catch((error: unknown) => {
        if (!ZooKeeperError.is(error, 'NODEEXISTS')) throw error;
      });
    }
    raw = await connectRaw(connect, 30_000);
    const locks = new LockClient(session, { root: '/bench/warmup' });
    const flags = RAW_EPHEMERAL_SEQUENTIAL();
    await Promise.all([
      (async () => {
        for (let i = 0; i < cycles / 2; i++) await (await locks.acquire('warmup')).release();
      })(),
      (async () => {
        for (let i = 0; i < cycles / 2; i++) await rawCycle(raw!, '/bench/warmup/raw', flags);
      })(),
    ]);
  } finally {
    raw?.close();
    session.close();
  }
  return round3((Date.now() - started) / 1000);
}

function hostInfo() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpu_model: cpus[0]?.model ?? 'unknown',
    kernel: `${os.type()} ${os.release()}`,
    loadavg_start: os.loadavg().map(round3),
    loadavg_end: [] as number[],
    java: javaVersion(),
    python: pythonVersion(),
    node: process.version,
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const quick = args.get('quick') === true;
  const only = args.get('only');
  const selected = typeof only === 'string' ? only.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean) : WORKLOADS.map((w) => w.key);
  const unknown = selected.filter((key) => !WORKLOADS.some((w) => w.key === key));
  if (unknown.length) throw new Error(`unknown workload(s) ${unknown.join(', ')}; known: ${WORKLOADS.map((w) => w.key).join(', ')}`);

  const started = Date.now();
  const ts = timestamp();
  const logDir = path.join(BENCH_DIR, 'results', 'logs', ts);
  fs.mkdirSync(logDir, { recursive: true });
  const host = hostInfo();
  const params = benchParams(quick);
  const warmupArg = args.get('server-warmup');
  if (typeof warmupArg === 'string') params.server_warmup_cycles = Number(warmupArg);
  process.stderr.write(`bench: starting ZooKeeper (logs in ${path.relative(process.cwd(), logDir)})\n`);
  // Curator runs beside the library where it can; a run without it says why and goes on.
  const withCurator = WORKLOADS.some((w) => w.peer && selected.includes(w.key));
  const curatorBuild: CuratorBuild = withCurator ? buildCurator(logDir) : { skipped: 'none of its workloads selected' };
  const curatorClasses = 'classes' in curatorBuild ? curatorBuild.classes : undefined;
  if (withCurator && !curatorClasses) process.stderr.write(`bench: Curator peer skipped: ${'skipped' in curatorBuild ? curatorBuild.skipped : ''}\n`);
  const server = await startBenchServer();
  const workloads: Record<string, Record<string, unknown>> = {};
  const errors: { workload: string; error: string }[] = [];
  let libraryFailed = false;
  let zk;
  try {
    const probe = new MntrProbe('127.0.0.1', server.port);
    zk = await describeServer(server, probe);
    const warmupS = await prepareServer(server.connectString, params.server_warmup_cycles);
    process.stderr.write(`bench: server warm-up (${params.server_warmup_cycles} cycles) took ${warmupS} s\n`);
    const order = schedule(selected, params.driver_rounds).filter((w) => !w.peer || curatorClasses);
    const passes = new Map<Workload, Record<string, unknown>[]>();
    for (const [i, w] of order.entries()) {
      if (i > 0) await sleep(1000);
      const round = (passes.get(w)?.length ?? 0) + 1;
      const rounds = w.rounds ? params.driver_rounds : 1;
      process.stderr.write(`bench: ${w.key}${w.impl === IMPL ? '' : ` (${w.impl})`}${w.driver ? ` on driver ${w.driver}` : ''}${rounds > 1 ? `, round ${round} of ${rounds}` : ''}${quick ? ' (quick)' : ''}\n`);
      const peerArgs = w.peer && curatorClasses ? ['--classes', curatorClasses] : [];
      const result = await runWorkloadProcess(w, server.connectString, quick, logDir, rounds > 1 ? round : undefined, peerArgs);
      // Every result says its driver, a failed one too (the table pairs the drivers by it).
      if (w.driver) result.driver ??= w.driver;
      passes.set(w, [...(passes.get(w) ?? []), result]);
      const before = errors.length;
      collectErrors(`${w.key}.${w.impl}${rounds > 1 ? ` (round ${round})` : ''}`, result, errors);
      // A peer's failure is recorded like any other, but the run measures the library: it does not fail for it.
      if (!w.peer) libraryFailed ||= errors.length > before;
    }
    // A workload run in rounds keeps its first round's result, with every round's under `rounds`.
    for (const [w, [first, ...more]] of passes) {
      workloads[w.key] = { ...workloads[w.key], [w.impl]: more.length ? { ...first, rounds: [first, ...more] } : first! };
    }
  } finally {
    try {
      fs.copyFileSync(server.logFile, path.join(logDir, 'zookeeper.log'));
    } catch (error) {
      process.stderr.write(`bench: could not keep the server log: ${String(error)}\n`);
    }
    await server.dispose();
  }
  host.loadavg_end = os.loadavg().map(round3);
  const doc = {
    schema: 'zk-lock-bench/1',
    timestamp: ts,
    quick,
    host,
    zk,
    params,
    notes: [
      `Before the workloads the harness warms the fresh server up with ${params.server_warmup_cycles} unmeasured cycles, half library lock cycles (root /bench/warmup) and half W5-style raw cycles (/bench/warmup/raw), side by side.`,
      `W1, W2, W5 and W6 run in ${params.driver_rounds} round(s), each with both drivers, the drivers' order reversed every other round (typescript first in odd rounds); such a result holds its first round's figures and every round's under rounds. The driver comparison takes each figure's median over the rounds; the main table shows the first round.`,
      `The library's workloads run once per driver, side by side: key ${IMPL} (driver typescript, the default) and ${IMPL}.native (driver native, the zookeeper package's C client); every result says its driver. W5 runs on both raw clients: node-zookeeper (the zookeeper package) and typescript-client (the library's ProtocolHandle, without ZkSession or recipes). On the native driver W6, W7, W8 and SCALE use the roots /bench/w6-native, /bench/w7-native, /bench/w8-native and /bench/scale-native, so that its lock directories are as new as the TypeScript pass's (empty containers last until the server's sweep, about once a minute).`,
      'nestjs-zk-lock locks use root = the workload path: the lock of W1/W2/W3 is <root>/locks/bench (e.g. /bench/w1/locks/bench).',
      'W6 uses root /bench/w6 and lock names e0 … e999 (warm-up w0 … w99): each lock directory /bench/w6/locks/<name> is a container, made by the first acquisition of its name and removed by the server\'s container sweep (about once a minute) once empty. znodes_after counts /bench/w6/locks, the persistent parent the warm-up makes, so its floor is 1.',
      'W7 uses root /bench/w7 and read/write lock bench: readers and writers queue in /bench/w7/rwlocks/bench. Hold 0 ms means no work, but each holder yields one setImmediate turn between counting itself in and out of the exclusion counters; without it, clients of one event loop could never be seen holding at once.',
      'W8 uses root /bench/w8 and semaphore bench of 4 permits: its queue is /bench/w8/semaphores/bench, one node per caller.',
      'W7 and W8 have no warm-up (BENCHMARKS.md defines none): their first operation creates the lock directory inside the measured region.',
      'W4 participants use root = the trial path and election name w4: <path>/elections/w4.',
      curatorClasses
        ? `Curator ran ${CURATOR_WORKLOADS.filter((key) => selected.includes(key)).join(', ')} in this run (key curator), on the same server between the same mntr snapshots as the library: bench/peers/CuratorBench.java on Debian's Curator jars (InterProcessMutex, InterProcessReadWriteLock, InterProcessSemaphoreV2), a fresh JVM per pass with the library's warm-ups (none in W7 and W8, as for the library), one thread per client, lock paths /bench/curator-<w>/bench; in W1 and W2 a third party in each round.`
        : `Curator did not run (${'skipped' in curatorBuild ? curatorBuild.skipped : ''}): the table compares with its figures from BENCHMARKS.md.`,
      'LOOP is not part of BENCHMARKS.md: the bare client on the request patterns of W6 and of SCALE\'s held locks, with an idle process beside it, as the floor of the event-loop figures (every event-loop figure counts the whole process, and the machine\'s share).',
      'SCALE is not part of BENCHMARKS.md: 1 lock with N queued waiters on one session, and M distinct locks held by one session (root /bench/scale).',
    ],
    workloads,
    errors,
    elapsed_s: round3((Date.now() - started) / 1000),
    log_dir: path.relative(BENCH_DIR, logDir),
  };
  const text = JSON.stringify(doc, null, 2);
  fs.writeFileSync(path.join(BENCH_DIR, 'results', `${ts}.json`), `${text}\n`);
  process.stdout.write(`${text}\n\n${resultTable(doc)}`);
  process.stderr.write(`bench: wrote ${path.relative(process.cwd(), path.join(BENCH_DIR, 'results', `${ts}.json`))}\n`);
  if (libraryFailed) process.exitCode = 1;
}

/**
 * A failed workload (or a failed part of one, e.g. `W2.c8`) holds `{ error }`. A workload that
 * counted exclusion violations (W7, W8) finished, but the lock failed: that is an error too.
 */
function collectErrors(name: string, result: unknown, errors: { workload: string; error: string }[]): void {
  if (!result || typeof result !== 'object') return;
  const record = result as Record<string, unknown>;
  if (typeof record.error === 'string') return void errors.push({ workload: name, error: record.error });
  if (typeof record.exclusion_violations === 'number' && record.exclusion_violations > 0) {
    errors.push({ workload: name, error: `${record.exclusion_violations} exclusion violation(s), e.g. ${JSON.stringify(record.exclusion_violation_samples)}` });
  }
  for (const [key, value] of Object.entries(record)) {
    if (value && typeof value === 'object' && typeof (value as Record<string, unknown>).error === 'string') {
      errors.push({ workload: `${name}.${key}`, error: String((value as Record<string, unknown>).error) });
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
