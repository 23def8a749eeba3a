/**
 * `npm run demo`: a throwaway ZooKeeper (the dev server), three replicas of the example app (examples/app), and a
 * narrated scenario: election, lock hand-offs, SIGKILL of the leader mid-batch, fail-over after
 * the session timeout, the repair, a graceful hand-over; then a timeline chart and a summary.
 *
 *   npm run demo                        the whole show, about 15 s; exits 0 when every guarantee held
 *   npm run demo -- --keep              leaves ZooKeeper and the replicas running until Ctrl-C
 *   npm run demo -- --headless          also prints the summary as one JSON line (also with CI=true)
 *   ZK_CONNECT=host:port npm run demo   uses that ZooKeeper instead of starting one
 *
 * ZooKeeper is the library's dev server (`nestjs-zk-lock dev-server`: one member, in memory, in
 * this process; no Java), with a 500 ms tick so that the 3 s session timeout is granted as asked.
 * The replicas reach it over TCP like any ZooKeeper, and it expires the killed leader's session on
 * real time. The demo watches the replicas only through their event lines and HTTP; it opens no
 * ZooKeeper session while they run.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DevServer } from '../src/dev-server/dev-server.js';
import { freePorts } from '../test/support/zk-server.js';
import { EventStream } from './demo/event-stream.js';
import { keepRunning } from './demo/keep.js';
import { Narrator, seconds } from './demo/narrator.js';
import { now, Replica, type ReplicaSpec } from './demo/replica.js';
import { runScenario } from './demo/scenario.js';
import { printSummary, summarize } from './demo/summary.js';
import { drawTimeline } from './demo/timeline.js';
import { removeTree } from './demo/zk-root.js';

const SESSION_TIMEOUT_MS = 3_000;
const STEP_MS = 400;
const SCENARIO_TIMEOUT_MS = 120_000;
const NAMES = ['replica-a', 'replica-b', 'replica-c'];

const { values: flags } = parseArgs({ options: { keep: { type: 'boolean', default: false }, headless: { type: 'boolean', default: false } } });
const headless = flags.headless || process.env.CI === 'true';
const narrator = new Narrator();
const replicas: Replica[] = [];
let server: DevServer | undefined;
let workDir: string | undefined;

// Whatever happens, no replica outlives the demo.
process.on('exit', () => {
  for (const replica of replicas) replica.signal('SIGKILL');
});
// Ctrl-C: during the scenario, stop everything and exit; once the cluster is kept running, end that.
let interrupted: () => void = () => void interruptedCleanup();
let keeping = false;
const stopRequested = new Promise<void>((resolve) => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => (keeping ? resolve() : interrupted()));
});

async function main(): Promise<number> {
  narrator.line(narrator.paint('nestjs-zk-lock demo: three replicas, one ZooKeeper, a crash and a hand-over', 'bold'));
  narrator.line();
  if (process.env.ZK_CONNECT) intro('ZooKeeper', `${process.env.ZK_CONNECT} (ZK_CONNECT); the demo's znodes are removed at the end`);
  const connect = process.env.ZK_CONNECT ?? (await startZooKeeper());
  const root = `/zk-lock-demo-${randomUUID().slice(0, 8)}`;
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zk-lock-demo-'));
  const ports = await freePorts(NAMES.length);
  const specs: ReplicaSpec[] = NAMES.map((name, i) => ({
    name,
    port: ports[i]!,
    connect,
    root,
    sessionTimeoutMs: SESSION_TIMEOUT_MS,
    ledgerDir: path.join(workDir!, 'ledger'),
    logDir: workDir!,
    stepMs: STEP_MS,
  }));
  const stream = new EventStream();
  // Replicas first: the demo opens no ZooKeeper session while they run (see zk-root.ts).
  narrator.origin = now();
  replicas.push(...specs.map((spec) => new Replica(spec, stream)));
  intro(`Replicas`, `${NAMES.join(', ')}: node build/examples/app/main.js, ports ${ports.join(', ')}`);
  intro(`Timeout`, `session timeout ${SESSION_TIMEOUT_MS} ms: how long ZooKeeper waits before it declares a silent replica dead`);
  intro(`Logs`, `${workDir}/replica-*.log`);
  intro(`Clock`, `the times below are seconds since the replicas were launched`);

  const result = await withTimeout(runScenario({ narrator, stream, replicas }), SCENARIO_TIMEOUT_MS, 'the scenario');
  const record = { events: stream.events, replicas, end: result.end, balances: result.balances };
  const summary = summarize(record);

  narrator.section('Timeline');
  drawTimeline(narrator, {
    origin: narrator.origin,
    end: result.end,
    replicas: replicas.map((r) => ({
      name: r.name,
      readyAt: stream.all('ready', (e) => e.replica === r.name)[0]?.t,
      goneAt: r.killedAt ?? r.terminatedAt ?? stream.all('stopped', (e) => e.replica === r.name)[0]?.t,
      killedAt: r.killedAt,
      terminatedAt: r.terminatedAt,
    })),
    leaders: summary.leaders,
    batches: summary.batches,
    accounts: summary.accounts,
    repairs: summary.recoveries,
  });
  narrator.section('Summary');
  printSummary(narrator, summary, narrator.origin);
  if (result.sessionTimeoutMs !== SESSION_TIMEOUT_MS) narrator.note(`(The server granted a session timeout of ${result.sessionTimeoutMs} ms instead of ${SESSION_TIMEOUT_MS}.)`);

  if (flags.keep) {
    keeping = true;
    const restart = (old: Replica) => new Replica(old.spec, stream);
    await keepRunning({ narrator, stream, replicas, restart, zookeeper: { connect, root } }, stopRequested);
  }
  await stopReplicas(true);
  if (process.env.ZK_CONNECT) await removeTree(connect, root);
  if (headless) process.stdout.write(`${JSON.stringify(summary)}\n`);
  return summary.ok ? 0 : 1;
}

async function startZooKeeper(): Promise<string> {
  const started = Date.now();
  server = await DevServer.start({ port: 0, tickMs: 500 });
  intro('ZooKeeper', `${server.connectString}: the dev server (nestjs-zk-lock dev-server: one member, in memory, no Java), ready in ${seconds(Date.now() - started)}`);
  return server.connectString;
}

function intro(label: string, text: string): void {
  narrator.line(`  ${narrator.paint(label.padEnd(11), 'bold')}${text}`);
}

/** SIGTERM (graceful), then SIGKILL whatever is still running after 5 s; or SIGKILL at once. */
async function stopReplicas(graceful: boolean): Promise<void> {
  for (const replica of replicas) replica.signal(graceful ? 'SIGTERM' : 'SIGKILL');
  await Promise.all(replicas.map(async (replica) => (await replica.waitExit(5_000)) || replica.signal('SIGKILL')));
  await Promise.all(replicas.map((replica) => replica.waitExit(5_000)));
}

async function cleanup(keepLogs: boolean): Promise<void> {
  for (const replica of replicas) replica.signal('SIGKILL');
  await Promise.all(replicas.map((replica) => replica.waitExit(5_000)));
  await server?.close();
  if (workDir && !keepLogs) fs.rmSync(workDir, { recursive: true, force: true });
}

let stopping = false;
async function interruptedCleanup(): Promise<void> {
  interrupted = () => undefined;
  stopping = true;
  narrator.line('\nInterrupted: stopping the replicas and ZooKeeper.');
  await cleanup(false);
  process.exit(130);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${seconds(ms)}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

main().then(
  async (code) => {
    if (stopping) return; // interrupted: interruptedCleanup() exits
    await cleanup(code !== 0);
    if (code !== 0 && workDir) narrator.line(`Replica logs kept in ${workDir}`);
    process.exit(code);
  },
  async (error: unknown) => {
    if (stopping) return;
    narrator.line();
    narrator.line(narrator.paint(`The demo failed: ${error instanceof Error ? error.message : String(error)}`, 'red', 'bold'));
    for (const replica of replicas) {
      narrator.line(narrator.paint(`--- last lines of ${replica.logFile}${replica.isAlive ? '' : ' (exited)'}`, 'dim'));
      narrator.line(replica.logTail());
    }
    await cleanup(true);
    if (workDir) narrator.line(`Replica logs kept in ${workDir}`);
    process.exit(1);
  },
);
