/**
 * Throwaway ZooKeeper servers for the tests, the benchmark and the demo.
 *
 * `ZkServer.start()` launches a standalone server, `ZkEnsemble.start({ size: 3 })` a quorum, each as
 * a `java` child process that we own (no zkServer.sh daemonising), on free loopback ports, with
 * data and logs in a fresh temp dir (under /dev/shm when present, or under `$ZK_TEST_RUN_DIR` when
 * the test runner set it). The server log goes to `<dir>/zookeeper.log`, never to our stdout.
 *
 * Nothing is left behind: every child is tracked and SIGKILLed synchronously on process exit and
 * on SIGINT/SIGTERM/SIGHUP (which are then re-raised unless someone else handles them), and its
 * PID is written to `$ZK_TEST_RUN_DIR/pids/` so that the runner can reap strays of a crashed file.
 *
 * ZooKeeper is taken from `ZOOKEEPER_HOME` (an Apache binary distribution, 3.6+) or Debian's
 * `zookeeper` package, which is installed with apt-get when missing and we are root on Debian.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TcpProxy } from './tcp-proxy.js';
import { DEBIAN_NETTY_JARS, zkTlsConfig, type ZkTlsOptions } from './zk-tls-config.js';

/** Server tuning shared by the tests and the benchmark; `extraConfig` can override or add. */
export const ZK_DEFAULT_CONFIG = {
  tickTime: 500,
  minSessionTimeout: 1000,
  maxSessionTimeout: 60000,
  initLimit: 10,
  syncLimit: 5,
  clientPortAddress: '127.0.0.1',
  maxClientCnxns: 0,
  'admin.enableServer': false,
  '4lw.commands.whitelist': '*',
  'autopurge.purgeInterval': 0,
} as const;

export interface ZkServerOptions {
  tickTime?: number;
  minSessionTimeout?: number;
  maxSessionTimeout?: number;
  /** JVM max heap (-Xmx), default '512m'. */
  heap?: string;
  /** Level of `<dir>/zookeeper.log`, default 'INFO' (the tail is shown when a start fails). */
  logLevel?: 'ERROR' | 'WARN' | 'INFO' | 'DEBUG';
  /** Bound for one start/restart to become ready, default 30 s. */
  readyTimeoutMs?: number;
  /** More zoo.cfg lines (e.g. `{ forceSync: 'no' }`); they win over the defaults. */
  extraConfig?: Record<string, string | number | boolean>;
  /** More JVM flags, appended after ours. */
  jvmArgs?: string[];
}

/** `ZkServer.start()` options: a standalone server, or with `serverId` a one-member quorum. */
export interface ZkServerStartOptions extends ZkServerOptions {
  /**
   * Run as a quorum of one member with this server id (`myid`, 1–255) instead of a standalone
   * server: ZooKeeper puts the id in the top byte of every session id it makes (id 255 gives
   * sessions `ff…`), which a standalone server never does (its id is 0).
   */
  serverId?: number;
  /**
   * Also serve TLS on a free `securePort` (Netty connection factory, PEM stores, x509 ACLs): see
   * zk-tls-config.ts. The plain `port` stays open.
   */
  tls?: ZkTlsOptions;
}

export type Mntr = Record<string, string | number>;

const INSTALL_HINT =
  'Install ZooKeeper with `apt-get install zookeeper` (Debian/Ubuntu), or set ZOOKEEPER_HOME to an ' +
  'Apache ZooKeeper 3.6+ binary distribution (apache-zookeeper-X.Y.Z-bin); Java 11+ is required.';
const DEBIAN_JAR = '/usr/share/java/zookeeper.jar';
// Debian's zookeeper.jar lists only slf4j-api in its manifest: without a binding the server logs
// nowhere (SLF4J's NOP fallback), so add the log4j 1.2 binding, which Debian packages too.
const DEBIAN_LOG_JARS = ['/usr/share/java/slf4j-log4j12.jar', '/usr/share/java/log4j-1.2.jar'];
const MAIN_CLASS = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';
/**
 * A bash prelude that closes every inherited descriptor above stdio, then execs its arguments (the
 * same pid). Node opens its own descriptors close-on-exec, but the `zookeeper` package's C client
 * does not: a JVM (re)started while a native-driver session of the test process dials would keep a
 * copy of that socket, and the package then spins on the dead connection and closes every new
 * handle as "expired" (README, Child processes), failing tests that restart a server on the native
 * driver now and then. A server is the test's infrastructure, not an application's child.
 */
const EXEC_WITHOUT_INHERITED_FDS = 'for fd in /proc/$$/fd/*; do fd=${fd##*/}; if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done; exec "$@"';

// ---------------------------------------------------------------- process-wide cleanup registry
const liveChildren = new Set<ChildProcess>();
const tempDirs = new Set<string>();
let hooksInstalled = false;

function cleanupSync(): void {
  for (const child of liveChildren) {
    try { child.kill('SIGKILL'); } catch { /* already gone */ }
    removePidFile(child.pid);
  }
  liveChildren.clear();
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', cleanupSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      cleanupSync();
      process.removeListener(signal, onSignal);
      // Do not swallow the signal: if nobody else handles it, die by it as if we were not here.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

function pidFile(pid: number | undefined): string | undefined {
  const runDir = process.env.ZK_TEST_RUN_DIR;
  return runDir && pid ? path.join(runDir, 'pids', String(pid)) : undefined;
}
function removePidFile(pid: number | undefined): void {
  const file = pidFile(pid);
  if (file) fs.rmSync(file, { force: true });
}

/** A fresh temp dir (under the run dir, /dev/shm or the OS tmp dir) that is removed on exit. */
export function makeTempDir(prefix: string): string {
  const base = process.env.ZK_TEST_RUN_DIR ?? (isWritableDir('/dev/shm') ? '/dev/shm' : os.tmpdir());
  const dir = fs.mkdtempSync(path.join(base, prefix));
  tempDirs.add(dir);
  installExitHooks();
  return dir;
}
function isWritableDir(dir: string): boolean {
  try { fs.accessSync(dir, fs.constants.W_OK); return fs.statSync(dir).isDirectory(); } catch { return false; }
}

// ---------------------------------------------------------------- finding (or installing) ZooKeeper
interface Runtime { java: string; classpath: string }
let runtime: Runtime | undefined;

function resolveRuntime(): Runtime {
  if (runtime) return runtime;
  let classpath: string;
  const home = process.env.ZOOKEEPER_HOME;
  if (home) {
    const lib = path.join(home, 'lib');
    const hasJar = fs.existsSync(lib) && fs.readdirSync(lib).some((f) => /^zookeeper-\d.*\.jar$/.test(f));
    if (!hasJar) throw new Error(`ZOOKEEPER_HOME=${home} has no lib/zookeeper-*.jar. ${INSTALL_HINT}`);
    classpath = `${lib}/*`;
  } else {
    if (!fs.existsSync(DEBIAN_JAR)) installWithApt();
    classpath = [DEBIAN_JAR, ...[...DEBIAN_LOG_JARS, ...DEBIAN_NETTY_JARS].filter((jar) => fs.existsSync(jar))].join(':');
  }
  const java = findJava();
  if (!java) throw new Error(`No \`java\` found (JAVA_HOME or PATH). ${INSTALL_HINT}`);
  return (runtime = { java, classpath });
}

function findJava(): string | undefined {
  const candidates = [
    ...(process.env.JAVA_HOME ? [path.join(process.env.JAVA_HOME, 'bin', 'java')] : []),
    ...(process.env.PATH ?? '').split(':').filter(Boolean).map((dir) => path.join(dir, 'java')),
    '/usr/bin/java',
  ];
  return candidates.find((file) => {
    try { fs.accessSync(file, fs.constants.X_OK); return true; } catch { return false; }
  });
}

/** apt-get install zookeeper, once per machine, under a lock so parallel test files queue up. */
function installWithApt(): void {
  if (!fs.existsSync('/etc/debian_version') || process.getuid?.() !== 0) {
    throw new Error(`ZooKeeper not found (no ZOOKEEPER_HOME, no ${DEBIAN_JAR}). ${INSTALL_HINT}`);
  }
  const lock = path.join(os.tmpdir(), 'nestjs-zk-lock-apt.lock');
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try { fs.mkdirSync(lock); break; } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (lockOwnerIsDead(lock)) { fs.rmSync(lock, { recursive: true, force: true }); continue; }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lock}. ${INSTALL_HINT}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250); // synchronous sleep
  }
  try {
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    if (fs.existsSync(DEBIAN_JAR)) return; // installed by whoever held the lock before us
    process.stderr.write('zk-server: ZooKeeper missing, running apt-get install zookeeper...\n');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update'], ['install', '-y', 'zookeeper']]) {
      // apt's chatter goes to our stderr, so that it never mixes into test reporter output.
      const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 2, 2], timeout: 10 * 60_000 });
      if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (${result.status ?? result.signal}). ${INSTALL_HINT}`);
    }
    if (!fs.existsSync(DEBIAN_JAR)) throw new Error(`apt-get installed zookeeper but ${DEBIAN_JAR} is missing. ${INSTALL_HINT}`);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
function lockOwnerIsDead(lock: string): boolean {
  try {
    process.kill(Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8')), 0);
    return false;
  } catch (error) {
    // No pid file yet means the owner is between mkdir and write: treat it as alive.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

// ---------------------------------------------------------------- small network helpers
/** Distinct free loopback ports: all are held open together, so one call never repeats a port. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject).listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((server) => (server.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** Sends a four-letter word and returns the whole answer (the server closes after answering). */
export function fourLetterWord(host: string, port: number, cmd: string, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => socket.destroy(new Error(`'${cmd}' to ${host}:${port} timed out after ${timeoutMs} ms`)), timeoutMs);
    socket.on('connect', () => socket.end(cmd));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => { clearTimeout(timer); reject(error); });
    socket.on('close', (hadError) => {
      clearTimeout(timer);
      if (!hadError) resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- one server process
type ExitInfo = { code: number | null; signal: NodeJS.Signals | null };

export class ZkServer {
  private child: ChildProcess | undefined;
  private exited: Promise<ExitInfo> = Promise.resolve({ code: null, signal: null });
  private paused = false;
  private disposed = false;
  /** TLS port (with `tls`); fixed once started, like `port`. */
  private tlsPort: number | undefined;
  private tls: ZkTlsOptions | undefined;

  /** Use `ZkServer.start()` or `ZkEnsemble.start()`. */
  private constructor(
    /** Temp dir of this server: zoo.cfg, data/, zookeeper.log, server.out. */
    readonly dir: string,
    /** Client port; fixed once started so that `restart()` comes back on the same one. */
    public port: number,
    private configLines: string[],
    private readonly options: ZkServerOptions,
    private readonly ownsDir: boolean,
  ) {}

  static async start(options: ZkServerStartOptions = {}): Promise<ZkServer> {
    const dir = makeTempDir('zk-');
    const { serverId, tls, ...serverOptions } = options;
    const server = new ZkServer(dir, 0, [], serverOptions, true);
    server.tls = tls;
    try {
      // A freed port can be grabbed by someone else before java binds it: retry with a new one.
      for (let attempt = 1; ; attempt++) {
        const [port, quorumPort, electionPort, securePort] = await freePorts(tls ? 4 : 3);
        server.port = port!;
        server.tlsPort = securePort;
        if (serverId !== undefined) server.configLines = singleMemberQuorum(server.dataDir, serverId, port!, quorumPort!, electionPort!);
        try { await server.launch(); return server; } catch (error) {
          if (attempt >= 3 || !(error instanceof AddressInUseError)) throw error;
        }
      }
    } catch (error) {
      await server.dispose();
      throw error;
    }
  }

  /** @internal Used by ZkEnsemble to build its members. */
  static member(dir: string, port: number, quorumLines: string[], options: ZkServerOptions): ZkServer {
    fs.mkdirSync(dir, { recursive: true });
    return new ZkServer(dir, port, quorumLines, options, false);
  }

  get connectString(): string { return `127.0.0.1:${this.port}`; }
  /** The TLS client port of a server started with `tls`. */
  get securePort(): number {
    if (this.tlsPort === undefined) throw new Error(`ZooKeeper on port ${this.port} was started without tls: it has no securePort`);
    return this.tlsPort;
  }
  /** `127.0.0.1:<securePort>`, for a client that speaks TLS. */
  get secureConnectString(): string { return `127.0.0.1:${this.securePort}`; }
  get dataDir(): string { return path.join(this.dir, 'data'); }
  get logFile(): string { return path.join(this.dir, 'zookeeper.log'); }
  /** PID of the current (or last) java process. */
  get pid(): number | undefined { return this.child?.pid; }
  get isRunning(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }
  get isPaused(): boolean { return this.isRunning && this.paused; }

  /** SIGTERM, wait for exit; SIGKILL if it takes longer than `timeoutMs`. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.isRunning) return this.waitExit(5000);
    this.resume(); // a stopped process would hold SIGTERM pending forever
    this.signal('SIGTERM');
    if (await this.waitExit(timeoutMs).then(() => true, () => false)) return;
    await this.kill();
  }

  /** SIGKILL (a crash: no snapshot, no session close), wait for exit. */
  async kill(): Promise<void> {
    if (this.isRunning) this.signal('SIGKILL');
    this.paused = false;
    await this.waitExit(10_000);
  }

  /**
   * SIGSTOP: the server keeps its sockets but answers nothing (a hung JVM / long GC pause).
   * Resolves once every JVM thread is stopped: that takes a few ms, during which it still answers.
   */
  async pause(): Promise<void> {
    this.signal('SIGSTOP');
    this.paused = true;
    const tasks = `/proc/${this.pid}/task`;
    if (!fs.existsSync(tasks)) return; // not Linux: best effort
    const deadline = Date.now() + 2000;
    while (!allStopped(tasks) && this.isRunning) {
      if (Date.now() > deadline) throw new Error(`ZooKeeper pid ${this.pid} did not stop within 2 s`);
      await sleep(1);
    }
  }
  resume(): void {
    if (this.paused && this.isRunning) this.signal('SIGCONT');
    this.paused = false;
  }

  /**
   * Starts again on the same port and data dir (stopping it first if running) and waits until
   * ready; pass `waitReady: false` for an ensemble member that cannot form a quorum on its own.
   */
  async restart({ waitReady = true }: { waitReady?: boolean } = {}): Promise<void> {
    if (this.disposed) throw new Error('ZkServer.restart() after dispose()');
    await this.stop();
    await this.launch(waitReady);
  }

  /**
   * Stops the server, wipes its data dir (snapshots, transaction logs; an ensemble member keeps its
   * myid) and starts it again on the same port: a server that lost its disk. It knows no session,
   * and refuses clients that have seen a later zxid than its own (0).
   */
  async restartEmpty({ waitReady = true }: { waitReady?: boolean } = {}): Promise<void> {
    if (this.disposed) throw new Error('ZkServer.restartEmpty() after dispose()');
    await this.stop();
    for (const entry of fs.readdirSync(this.dataDir)) {
      if (entry !== 'myid') fs.rmSync(path.join(this.dataDir, entry), { recursive: true, force: true });
    }
    await this.launch(waitReady);
  }

  fourLetter(cmd: string, timeoutMs = 2000): Promise<string> {
    return fourLetterWord('127.0.0.1', this.port, cmd, timeoutMs);
  }

  /** `mntr` as a record, numeric values parsed. */
  async mntr(): Promise<Mntr> {
    const result: Mntr = {};
    for (const line of (await this.fourLetter('mntr')).split('\n')) {
      const [key, value] = line.split('\t');
      if (!key || value === undefined) continue;
      result[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    }
    return result;
  }

  /** 'standalone' | 'leader' | 'follower' | 'observer', or undefined while not serving / unreachable. */
  async mode(timeoutMs = 1000): Promise<string | undefined> {
    try {
      return /^Mode: (\S+)/m.exec(await this.fourLetter('srvr', timeoutMs))?.[1];
    } catch { return undefined; }
  }

  /** Kills the process (if running) and removes the temp dir. Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.kill().catch(() => undefined);
    if (this.ownsDir) {
      fs.rmSync(this.dir, { recursive: true, force: true });
      tempDirs.delete(this.dir);
    }
  }
  async [Symbol.asyncDispose](): Promise<void> { await this.dispose(); }

  /** The last lines of the server log and of the JVM's own stdout/stderr, for error messages. */
  logTail(lines = 25): string {
    const tail = (file: string): string => {
      try { return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n'); } catch { return ''; }
    };
    return [`--- ${this.logFile}`, tail(this.logFile), `--- ${path.join(this.dir, 'server.out')}`, tail(path.join(this.dir, 'server.out'))].join('\n');
  }

  /** @internal Writes the config, spawns java, and waits until ready. */
  async launch(waitReady = true): Promise<void> {
    if (this.isRunning) throw new Error(`ZooKeeper on port ${this.port} is already running`);
    this.writeConfig();
    const { java, classpath } = resolveRuntime();
    const out = fs.openSync(path.join(this.dir, 'server.out'), 'a');
    const child = spawn('/bin/bash', ['-c', EXEC_WITHOUT_INHERITED_FDS, 'zk-server', java,
      `-Xmx${this.options.heap ?? '512m'}`, '-XX:+UseSerialGC',
      '-Djava.net.preferIPv4Stack=true', '-Dzookeeper.jmx.log4j.disable=true',
      `-Dzookeeper.log.dir=${this.dir}`,
      `-Dlog4j.configuration=file:${path.join(this.dir, 'log4j.properties')}`,
      `-Dlogback.configurationFile=${path.join(this.dir, 'logback.xml')}`,
      ...(this.options.jvmArgs ?? []),
      '-cp', classpath, MAIN_CLASS, path.join(this.dir, 'zoo.cfg'),
    ], { cwd: this.dir, stdio: ['ignore', out, out] });
    fs.closeSync(out);
    // Unref'd: a test file that forgets dispose() still exits, and the 'exit' hook kills the JVM.
    child.unref();
    this.child = child;
    this.paused = false;
    let spawnError: Error | undefined;
    this.exited = new Promise((resolve) => {
      child.once('error', (error) => { spawnError = error; resolve({ code: null, signal: null }); });
      child.once('exit', (code, signal) => {
        liveChildren.delete(child);
        removePidFile(child.pid);
        resolve({ code, signal });
      });
    });
    if (child.pid === undefined) {
      await this.exited;
      this.child = undefined;
      throw new Error(`Could not spawn ${java}: ${spawnError?.message}. ${INSTALL_HINT}`);
    }
    liveChildren.add(child);
    const file = pidFile(child.pid);
    if (file) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, path.join(this.dir, 'zoo.cfg')); // the runner checks the cmdline against it
    }
    if (waitReady) await this.waitReady();
  }

  /** @internal Ready = `ruok` answers `imok` AND `srvr` shows a Mode (imok comes before serving). */
  async waitReady(timeoutMs = this.options.readyTimeoutMs ?? 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.isRunning) {
        const { code, signal } = await this.exited;
        const tail = this.logTail();
        if (/Address already in use/.test(tail)) throw new AddressInUseError(this.port, tail);
        throw new Error(`ZooKeeper (port ${this.port}) exited before ready (code ${code}, signal ${signal})\n${tail}`);
      }
      const imok = await this.fourLetter('ruok', 1000).catch(() => '');
      if (imok === 'imok' && (await this.mode())) return;
      if (Date.now() > deadline) {
        await this.kill().catch(() => undefined);
        throw new Error(`ZooKeeper (port ${this.port}) not ready within ${timeoutMs} ms\n${this.logTail()}`);
      }
      await sleep(50);
    }
  }

  private waitExit(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`ZooKeeper pid ${this.pid} did not exit within ${timeoutMs} ms`)), timeoutMs);
      void this.exited.then(() => { clearTimeout(timer); resolve(); });
    });
  }

  private signal(signal: NodeJS.Signals): void {
    if (!this.isRunning) throw new Error(`ZooKeeper on port ${this.port} is not running`);
    this.child!.kill(signal);
  }

  private writeConfig(): void {
    const o = this.options;
    const config: Record<string, string | number | boolean> = {
      ...ZK_DEFAULT_CONFIG,
      ...(o.tickTime !== undefined && { tickTime: o.tickTime }),
      ...(o.minSessionTimeout !== undefined && { minSessionTimeout: o.minSessionTimeout }),
      ...(o.maxSessionTimeout !== undefined && { maxSessionTimeout: o.maxSessionTimeout }),
      ...(this.tls && zkTlsConfig(this.dir, this.securePort, this.tls)),
      ...o.extraConfig,
      dataDir: this.dataDir,
      clientPort: this.port,
    };
    const lines = [...Object.entries(config).map(([k, v]) => `${k}=${v}`), ...this.configLines];
    fs.mkdirSync(this.dataDir, { recursive: true });
    fs.writeFileSync(path.join(this.dir, 'zoo.cfg'), lines.join('\n') + '\n');
    const level = o.logLevel ?? 'INFO';
    const pattern = '%d{ISO8601} %-5p [%t:%C{1}@%L] - %m%n';
    // log4j 1.2 for Debian's package and Apache 3.6/3.7, logback for Apache 3.8+.
    fs.writeFileSync(path.join(this.dir, 'log4j.properties'), [
      `log4j.rootLogger=${level}, FILE`,
      'log4j.appender.FILE=org.apache.log4j.FileAppender',
      `log4j.appender.FILE.File=${this.logFile}`,
      'log4j.appender.FILE.layout=org.apache.log4j.PatternLayout',
      `log4j.appender.FILE.layout.ConversionPattern=${pattern}`,
    ].join('\n') + '\n');
    fs.writeFileSync(path.join(this.dir, 'logback.xml'),
      `<configuration><appender name="FILE" class="ch.qos.logback.core.FileAppender"><file>${this.logFile}</file>` +
      `<encoder><pattern>%d{ISO8601} %-5p [%t:%C{1}@%L] - %m%n</pattern></encoder></appender>` +
      `<root level="${level}"><appender-ref ref="FILE"/></root></configuration>\n`);
  }
}

/** True when every thread of the process is in state T (stopped) or t (traced). */
function allStopped(tasksDir: string): boolean {
  try {
    return fs.readdirSync(tasksDir).every((task) => {
      try { return /^[Tt]/.test(fs.readFileSync(path.join(tasksDir, task, 'stat'), 'utf8').replace(/^.*\) /s, '')); } catch { return true; }
    });
  } catch { return true; }
}

/** The zoo.cfg lines (and the myid file) of a quorum whose only member is `serverId`. */
function singleMemberQuorum(dataDir: string, serverId: number, port: number, quorumPort: number, electionPort: number): string[] {
  checkServerId(serverId);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'myid'), `${serverId}\n`);
  // Without `standaloneEnabled=false` a lone server line still starts a standalone server (id 0).
  return ['standaloneEnabled=false', `server.${serverId}=127.0.0.1:${quorumPort}:${electionPort};127.0.0.1:${port}`];
}

/** A zoo.cfg server line; with `clientPort`, the client address that `/zookeeper/config` lists. */
function serverLine(id: number, quorumPort: number, electionPort: number, clientPort: number | undefined): string {
  const line = `server.${id}=127.0.0.1:${quorumPort}:${electionPort}`;
  return clientPort === undefined ? line : `${line}:participant;127.0.0.1:${clientPort}`;
}

/** ZooKeeper takes 1–255 while TTL nodes are off (the default); 255 is the one that collides with TTL owners. */
function checkServerId(id: number): void {
  if (!Number.isInteger(id) || id < 1 || id > 255) throw new Error(`server id must be an integer 1–255, got ${id}`);
}

class AddressInUseError extends Error {
  constructor(port: number, tail: string) { super(`ZooKeeper (port ${port}): address already in use\n${tail}`); }
}

// ---------------------------------------------------------------- a quorum of servers
export interface ZkEnsembleOptions extends ZkServerOptions {
  size?: number;
  /** The members' server ids (`myid`), e.g. `[1, 2, 255]`; default 1..size. Sets the size when given. */
  serverIds?: number[];
  /**
   * Route every quorum link through a `TcpProxy` (`link(from, to)`), for faults between members: a
   * follower cut off from its leader, proposals held back. Election ports stay direct.
   */
  quorumLinks?: boolean;
  /**
   * Dynamic reconfiguration (`reconfigEnabled=true`, `standaloneEnabled=false` so that it can shrink
   * to one member, and `zookeeper.skipACL` so that any session may send `reconfig`): every server
   * line carries its client address (`;127.0.0.1:<port>`), which `/zookeeper/config` then lists.
   */
  reconfigEnabled?: boolean;
  /**
   * Members prepared but neither started nor in the ensemble's config (a reconfig adds them): each
   * one's zoo.cfg lists the initial members and itself, as a joining server's must. They come last
   * in `members`; `start()` leaves them stopped (`launch()` one, then `reconfig` it in).
   */
  spareMembers?: number;
}

/** links[i][j]: how member i dials member j's quorum port; undefined on the diagonal. */
type QuorumLinks = (TcpProxy | undefined)[][];

export class ZkEnsemble {
  private constructor(
    readonly dir: string,
    readonly members: ZkServer[],
    private readonly links: QuorumLinks = [],
    /** Each member's server line as `reconfig` adds it (quorum links bypassed). */
    private readonly serverLines: string[] = [],
  ) {}

  static async start(options: ZkEnsembleOptions = {}): Promise<ZkEnsemble> {
    const ids = options.serverIds ?? Array.from({ length: options.size ?? 3 }, (_, i) => i + 1);
    ids.forEach(checkServerId);
    if (new Set(ids).size !== ids.length) throw new Error(`server ids must be distinct, got ${ids.join(', ')}`);
    const spares = options.spareMembers ?? 0;
    if (spares > 0 && !options.reconfigEnabled) throw new Error('spareMembers needs reconfigEnabled: only a reconfig can add them');
    const allIds = [...ids];
    for (let next = 1; allIds.length < ids.length + spares; next++) if (!allIds.includes(next)) allIds.push(next);
    const size = allIds.length;
    const reconfig = options.reconfigEnabled ? {
      extraConfig: { reconfigEnabled: true, standaloneEnabled: false, ...options.extraConfig },
      jvmArgs: ['-Dzookeeper.skipACL=yes', ...(options.jvmArgs ?? [])],
    } : {};
    for (let attempt = 1; ; attempt++) {
      const dir = makeTempDir('zk-ensemble-');
      // The links listen before the members' ports are picked: picked first and released, a
      // member's port could be handed to a link ("address in use").
      const links: QuorumLinks = [];
      if (options.quorumLinks) {
        for (let i = 0; i < size; i++) {
          links.push([]);
          for (let j = 0; j < size; j++) links[i]!.push(i === j ? undefined : await TcpProxy.start('127.0.0.1', 1));
        }
      }
      const ports = await freePorts(3 * size); // client, quorum, election per member
      links.forEach((row) => row.forEach((link, j) => link?.retarget('127.0.0.1', ports[3 * j + 1]!)));
      const quorumPort = (i: number, j: number) => links[i]?.[j]?.port ?? ports[3 * j + 1];
      const members = allIds.map((id, i) => {
        const memberDir = path.join(dir, `zk${i + 1}`);
        fs.mkdirSync(path.join(memberDir, 'data'), { recursive: true });
        fs.writeFileSync(path.join(memberDir, 'data', 'myid'), `${id}\n`);
        // A spare knows the initial members and itself; an initial member knows the initial members.
        const known = i < ids.length ? ids.map((_, j) => j) : [...ids.map((_, j) => j), i];
        const quorumLines = known.map((j) => serverLine(allIds[j]!, quorumPort(i, j)!, ports[3 * j + 2]!, options.reconfigEnabled ? ports[3 * j] : undefined));
        return ZkServer.member(memberDir, ports[3 * i]!, quorumLines, { ...options, ...reconfig });
      });
      const lines = allIds.map((id, j) => serverLine(id, ports[3 * j + 1]!, ports[3 * j + 2]!, ports[3 * j]));
      const ensemble = new ZkEnsemble(dir, members, links, lines);
      const initial = members.slice(0, ids.length);
      try {
        // Spawn all first: no member can be ready (have a Mode) before a quorum is up.
        for (const member of initial) await member.launch(false);
        await Promise.all(initial.map((member) => member.waitReady()));
        return ensemble;
      } catch (error) {
        await ensemble.dispose();
        if (attempt >= 3 || !(error instanceof AddressInUseError)) throw error;
      }
    }
  }

  /** The proxy through which member `from` dials member `to`'s quorum port (a follower dials its leader): needs `quorumLinks`. */
  link(from: number, to: number): TcpProxy {
    const link = this.links[from]?.[to];
    if (!link) throw new Error(`no quorum link from member ${from} to member ${to} (start the ensemble with quorumLinks)`);
    return link;
  }

  /** Each member's `Mode` (leader, follower, standalone), undefined for a member that does not answer. */
  modes(): Promise<(string | undefined)[]> {
    return Promise.all(this.members.map((member) => member.mode()));
  }

  /** Every member's client address, spares included (which refuse connections until launched). */
  get connectString(): string { return this.members.map((member) => member.connectString).join(','); }

  /** `server.<id>=127.0.0.1:<quorum>:<election>:participant;127.0.0.1:<client>` of member `index`, as `reconfig` adds it. */
  serverLine(index: number): string {
    const line = this.serverLines[index];
    if (line === undefined) throw new Error(`no member ${index}`);
    return line;
  }

  /** The server id (`myid`) of member `index`. */
  idOf(index: number): number {
    return Number(/^server\.(\d+)=/.exec(this.serverLine(index))![1]);
  }

  /** The member whose `srvr` says `Mode: leader`, waiting (bounded) through an election. */
  async leader(timeoutMs = 15_000): Promise<ZkServer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const leaders = await this.withMode('leader');
      if (leaders.length === 1) return leaders[0]!;
      if (Date.now() > deadline) throw new Error(`No single ZooKeeper leader within ${timeoutMs} ms (found ${leaders.length})`);
      await sleep(100);
    }
  }

  followers(): Promise<ZkServer[]> { return this.withMode('follower'); }

  /** Waits until every running, unpaused member serves as leader/follower, with one leader. */
  async waitForQuorum(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const live = this.members.filter((member) => member.isRunning && !member.isPaused);
      const modes = await Promise.all(live.map((member) => member.mode()));
      const allServing = modes.every((mode) => mode === 'leader' || mode === 'follower');
      if (live.length > 0 && allServing && modes.filter((mode) => mode === 'leader').length === 1) return;
      if (Date.now() > deadline) throw new Error(`No ZooKeeper quorum within ${timeoutMs} ms (modes: ${modes.join(', ')})`);
      await sleep(100);
    }
  }

  async dispose(): Promise<void> {
    for (const row of this.links) for (const link of row) await link?.close();
    await Promise.all(this.members.map((member) => member.dispose()));
    fs.rmSync(this.dir, { recursive: true, force: true });
    tempDirs.delete(this.dir);
  }
  async [Symbol.asyncDispose](): Promise<void> { await this.dispose(); }

  private async withMode(mode: string): Promise<ZkServer[]> {
    const live = this.members.filter((member) => member.isRunning && !member.isPaused);
    const modes = await Promise.all(live.map((member) => member.mode()));
    return live.filter((_, i) => modes[i] === mode);
  }
}
