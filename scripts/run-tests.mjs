#!/usr/bin/env node
/**
 * `npm test` after `tsc -p tsconfig.json` has built into build/ (this script does not build).
 *
 *   node scripts/run-tests.mjs [filter...] [--node-test-flag...]
 *
 * Starts one shared standalone ZooKeeper (ZK_TEST_CONNECT) for the tests that only need *a* server
 * (tests that stop/restart servers start their own), runs build/test/**\/*.test.js (paths containing
 * any filter, e.g. `npm test -- session`) one file at a time with node's test runner, then stops the
 * server, SIGKILLs ZooKeeper JVMs that crashed test files left in $ZK_TEST_RUN_DIR/pids, removes
 * the run dir, and exits with the test runner's code. Nothing is printed after the test summary.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testRoot = path.join(root, 'build', 'test');
const log = (message) => process.stderr.write(`run-tests: ${message}\n`);

const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const nodeFlags = process.argv.slice(2).filter((arg) => arg.startsWith('-'));

function findTests(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(file);
    return entry.isFile() && entry.name.endsWith('.test.js') ? [file] : [];
  });
}
const files = findTests(testRoot)
  .map((file) => path.relative(root, file))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();
if (files.length === 0) {
  log(`no test files under ${path.relative(root, testRoot)}${filters.length ? ` matching ${filters.join(', ')}` : ''} (did tsc run?)`);
  process.exit(1);
}

// The run dir holds every test server's temp dir and PID file, so one rmSync cleans up after all.
const base = isWritableDir('/dev/shm') ? '/dev/shm' : os.tmpdir();
await reapStaleRuns();
const runDir = fs.mkdtempSync(path.join(base, 'zk-test-run-'));
fs.mkdirSync(path.join(runDir, 'pids'));
fs.writeFileSync(path.join(runDir, 'runner.pid'), String(process.pid));
process.env.ZK_TEST_RUN_DIR = runDir;

let server;
let tests; // the `node --test` child, leader of its own process group
let interrupted;
let exiting = false;

// Our own signal handling: forward to the whole test process group, then clean up below. The
// 'exit' hook is the last resort if we die some other way (uncaught error).
process.on('exit', () => {
  if (tests && tests.exitCode === null && tests.signalCode === null) killGroup('SIGKILL');
  fs.rmSync(runDir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (interrupted) { killGroup('SIGKILL'); return; } // second signal: stop waiting politely
    interrupted = signal;
    if (tests) killGroup(signal);
    else void finish(128 + os.constants.signals[signal]);
  });
}

try {
  const { ZkServer } = await import(pathToFileURL(path.join(root, 'build/test/support/zk-server.js')).href);
  const started = Date.now();
  server = await ZkServer.start();
  process.env.ZK_TEST_CONNECT = server.connectString;
  log(`shared ZooKeeper at ${server.connectString} (ready in ${Date.now() - started} ms), ${files.length} test file(s)`);
} catch (error) {
  log(`could not start the shared ZooKeeper: ${error instanceof Error ? error.stack : error}`);
  await finish(1);
}

if (!interrupted) {
  const args = ['--test', '--test-concurrency=1', '--test-timeout=120000', '--test-reporter=spec', ...nodeFlags, ...files];
  // detached: its own process group, so that one signal reaches the runner and every test file.
  tests = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', detached: true, env: process.env });
  const code = await new Promise((resolve) => {
    tests.on('error', (error) => { log(`could not run node --test: ${error.message}`); resolve(1); });
    tests.on('exit', (code, signal) => resolve(code ?? 128 + (os.constants.signals[signal] ?? 0)));
  });
  await finish(interrupted ? 128 + os.constants.signals[interrupted] : code);
}

async function finish(code) {
  if (exiting) return;
  exiting = true;
  await server?.stop().catch(() => undefined);
  await server?.dispose().catch(() => undefined);
  await reapStrays();
  fs.rmSync(runDir, { recursive: true, force: true });
  process.exit(code);
}

function killGroup(signal) {
  try { process.kill(-tests.pid, signal); } catch { /* group already gone */ }
}

/**
 * A runner that was SIGKILLed could not clean up: its run dir (and maybe its JVMs) are still here.
 * Reap runs whose runner is gone; a run dir without runner.pid is only stale once it is old.
 */
async function reapStaleRuns() {
  for (const name of fs.readdirSync(base).filter((entry) => entry.startsWith('zk-test-run-'))) {
    const dir = path.join(base, name);
    let owner;
    try { owner = Number(fs.readFileSync(path.join(dir, 'runner.pid'), 'utf8')); } catch { owner = undefined; }
    const stale = owner ? !isAlive(owner) : Date.now() - fs.statSync(dir).mtimeMs > 60_000;
    if (!stale) continue;
    await reapStrays(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** SIGKILL the JVMs of crashed test files: only live java processes started with our own config. */
async function reapStrays(dir = runDir) {
  const pidsDir = path.join(dir, 'pids');
  const reaped = [];
  for (const name of fs.existsSync(pidsDir) ? fs.readdirSync(pidsDir) : []) {
    const pid = Number(name);
    let config;
    try { config = fs.readFileSync(path.join(pidsDir, name), 'utf8'); } catch { continue; } // exited meanwhile
    const argv = readCmdline(pid);
    if (!argv || path.basename(argv[0] ?? '') !== 'java' || !argv.includes(config)) continue;
    try { process.kill(pid, 'SIGKILL'); reaped.push(pid); } catch { /* exited meanwhile */ }
  }
  // Orphans are reaped by init; wait (bounded) so that nothing is left when we return.
  const deadline = Date.now() + 5000;
  while (reaped.some((pid) => isAlive(pid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

function readCmdline(pid) {
  try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'); } catch { return undefined; }
}
function isAlive(pid) {
  try { return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
}
function isWritableDir(dir) {
  try { fs.accessSync(dir, fs.constants.W_OK); return fs.statSync(dir).isDirectory(); } catch { return false; }
}
