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
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TcpProxy } from './tcp-proxy.js';
import { DEBIAN_NETTY_JARS, zkTlsConfig } from './zk-tls-config.js';
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
};
const INSTALL_HINT = 'Install ZooKeeper with `apt-get install zookeeper` (Debian/Ubuntu), or set ZOOKEEPER_HOME to an ' +
    'Apache ZooKeeper 3.6+ binary distribution (apache-zookeeper-X.Y.Z-bin); Java 11+ is required.';
const DEBIAN_JAR = '/usr/share/java/zookeeper.jar';
// Debian's zookeeper.jar lists only slf4j-api in its manifest: without a binding the server logs
// nowhere (SLF4J's NOP fallback), so add the log4j 1.2 binding, which Debian packages too.
const DEBIAN_LOG_JARS = ['/usr/share/java/slf4j-log4j12.jar', '/usr/share/java/log4j-1.2.jar'];
const MAIN_CLASS = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';
// ---------------------------------------------------------------- process-wide cleanup registry
const liveChildren = new Set();
const tempDirs = new Set();
let hooksInstalled = false;
function cleanupSync() {
    for (const child of liveChildren) {
        try {
            child.kill('SIGKILL');
        }
        catch { /* already gone */ }
        removePidFile(child.pid);
    }
    liveChildren.clear();
    for (const dir of tempDirs)
        fs.rmSync(dir, { recursive: true, force: true });
    tempDirs.clear();
}
function installExitHooks() {
    if (hooksInstalled)
        return;
    hooksInstalled = true;
    process.on('exit', cleanupSync);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
        const onSignal = () => {
            cleanupSync();
            process.removeListener(signal, onSignal);
            // Do not swallow the signal: if nobody else handles it, die by it as if we were not here.
            if (process.listenerCount(signal) === 0)
                process.kill(process.pid, signal);
        };
        process.on(signal, onSignal);
    }
}
function pidFile(pid) {
    const runDir = process.env.ZK_TEST_RUN_DIR;
    return runDir && pid ? path.join(runDir, 'pids', String(pid)) : undefined;
}
function removePidFile(pid) {
    const file = pidFile(pid);
    if (file)
        fs.rmSync(file, { force: true });
}
/** A fresh temp dir (under the run dir, /dev/shm or the OS tmp dir) that is removed on exit. */
export function makeTempDir(prefix) {
    const base = process.env.ZK_TEST_RUN_DIR ?? (isWritableDir('/dev/shm') ? '/dev/shm' : os.tmpdir());
    const dir = fs.mkdtempSync(path.join(base, prefix));
    tempDirs.add(dir);
    installExitHooks();
    return dir;
}
function isWritableDir(dir) {
    try {
        fs.accessSync(dir, fs.constants.W_OK);
        return fs.statSync(dir).isDirectory();
    }
    catch {
        return false;
    }
}
let runtime;
function resolveRuntime() {
    if (runtime)
        return runtime;
    let classpath;
    const home = process.env.ZOOKEEPER_HOME;
    if (home) {
        const lib = path.join(home, 'lib');
        const hasJar = fs.existsSync(lib) && fs.readdirSync(lib).some((f) => /^zookeeper-\d.*\.jar$/.test(f));
        if (!hasJar)
            throw new Error(`ZOOKEEPER_HOME=${home} has no lib/zookeeper-*.jar. ${INSTALL_HINT}`);
        classpath = `${lib}/*`;
    }
    else {
        if (!fs.existsSync(DEBIAN_JAR))
            installWithApt();
        classpath = [DEBIAN_JAR, ...[...DEBIAN_LOG_JARS, ...DEBIAN_NETTY_JARS].filter((jar) => fs.existsSync(jar))].join(':');
    }
    const java = findJava();
    if (!java)
        throw new Error(`No \`java\` found (JAVA_HOME or PATH). ${INSTALL_HINT}`);
    return (runtime = { java, classpath });
}
function findJava() {
    const candidates = [
        ...(process.env.JAVA_HOME ? [path.join(process.env.JAVA_HOME, 'bin', 'java')] : []),
        ...(process.env.PATH ?? '').split(':').filter(Boolean).map((dir) => path.join(dir, 'java')),
        '/usr/bin/java',
    ];
    return candidates.find((file) => {
        try {
            fs.accessSync(file, fs.constants.X_OK);
            return true;
        }
        catch {
            return false;
        }
    });
}
/** apt-get install zookeeper, once per machine, under a lock so parallel test files queue up. */
function installWithApt() {
    if (!fs.existsSync('/etc/debian_version') || process.getuid?.() !== 0) {
        throw new Error(`ZooKeeper not found (no ZOOKEEPER_HOME, no ${DEBIAN_JAR}). ${INSTALL_HINT}`);
    }
    const lock = path.join(os.tmpdir(), 'nestjs-zk-lock-apt.lock');
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
        try {
            fs.mkdirSync(lock);
            break;
        }
        catch (error) {
            if (error.code !== 'EEXIST')
                throw error;
        }
        if (lockOwnerIsDead(lock)) {
            fs.rmSync(lock, { recursive: true, force: true });
            continue;
        }
        if (Date.now() > deadline)
            throw new Error(`Timed out waiting for ${lock}. ${INSTALL_HINT}`);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250); // synchronous sleep
    }
    try {
        fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
        if (fs.existsSync(DEBIAN_JAR))
            return; // installed by whoever held the lock before us
        process.stderr.write('zk-server: ZooKeeper missing, running apt-get install zookeeper...\n');
        const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
        for (const args of [['update'], ['install', '-y', 'zookeeper']]) {
            // apt's chatter goes to our stderr, so that it never mixes into test reporter output.
            const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 2, 2], timeout: 10 * 60_000 });
            if (result.status !== 0)
                throw new Error(`apt-get ${args.join(' ')} failed (${result.status ?? result.signal}). ${INSTALL_HINT}`);
        }
        if (!fs.existsSync(DEBIAN_JAR))
            throw new Error(`apt-get installed zookeeper but ${DEBIAN_JAR} is missing. ${INSTALL_HINT}`);
    }
    finally {
        fs.rmSync(lock, { recursive: true, force: true });
    }
}
function lockOwnerIsDead(lock) {
    try {
        process.kill(Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8')), 0);
        return false;
    }
    catch (error) {
        // No pid file yet means the owner is between mkdir and write: treat it as alive.
        return error.code === 'ESRCH';
    }
}
// ---------------------------------------------------------------- small network helpers
/** Distinct free loopback ports: all are held open together, so one call never repeats a port. */
export async function freePorts(count) {
    const servers = [];
    try {
        for (let i = 0; i < count; i++) {
            const server = net.createServer();
            servers.push(server);
            await new Promise((resolve, reject) => {
                server.once('error', reject).listen(0, '127.0.0.1', () => resolve());
            });
        }
        return servers.map((server) => server.address().port);
    }
    finally {
        await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
}
/** Sends a four-letter word and returns the whole answer (the server closes after answering). */
export function fourLetterWord(host, port, cmd, timeoutMs = 2000) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        const socket = net.connect({ host, port });
        const timer = setTimeout(() => socket.destroy(new Error(`'${cmd}' to ${host}:${port} timed out after ${timeoutMs} ms`)), timeoutMs);
        socket.on('connect', () => socket.end(cmd));
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', (error) => { clearTimeout(timer); reject(error); });
        socket.on('close', (hadError) => {
            clearTimeout(timer);
            if (!hadError)
                resolve(Buffer.concat(chunks).toString('utf8'));
        });
    });
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export class ZkServer {
    /** Use `ZkServer.start()` or `ZkEnsemble.start()`. */
    constructor(
    /** Temp dir of this server: zoo.cfg, data/, zookeeper.log, server.out. */
    dir, 
    /** Client port; fixed once started so that `restart()` comes back on the same one. */
    port, configLines, options, ownsDir) {
        this.dir = dir;
        this.port = port;
        this.configLines = configLines;
        this.options = options;
        this.ownsDir = ownsDir;
        this.exited = Promise.resolve({ code: null, signal: null });
        this.paused = false;
        this.disposed = false;
    }
    static async start(options = {}) {
        const dir = makeTempDir('zk-');
        const { serverId, tls, ...serverOptions } = options;
        const server = new ZkServer(dir, 0, [], serverOptions, true);
        server.tls = tls;
        try {
            // A freed port can be grabbed by someone else before java binds it: retry with a new one.
            for (let attempt = 1;; attempt++) {
                const [port, quorumPort, electionPort, securePort] = await freePorts(tls ? 4 : 3);
                server.port = port;
                server.tlsPort = securePort;
                if (serverId !== undefined)
                    server.configLines = singleMemberQuorum(server.dataDir, serverId, port, quorumPort, electionPort);
                try {
                    await server.launch();
                    return server;
                }
                catch (error) {
                    if (attempt >= 3 || !(error instanceof AddressInUseError))
                        throw error;
                }
            }
        }
        catch (error) {
            await server.dispose();
            throw error;
        }
    }
    /** @internal Used by ZkEnsemble to build its members. */
    static member(dir, port, quorumLines, options) {
        fs.mkdirSync(dir, { recursive: true });
        return new ZkServer(dir, port, quorumLines, options, false);
    }
    get connectString() { return `127.0.0.1:${this.port}`; }
    /** The TLS client port of a server started with `tls`. */
    get securePort() {
        if (this.tlsPort === undefined)
            throw new Error(`ZooKeeper on port ${this.port} was started without tls: it has no securePort`);
        return this.tlsPort;
    }
    /** `127.0.0.1:<securePort>`, for a client that speaks TLS. */
    get secureConnectString() { return `127.0.0.1:${this.securePort}`; }
    get dataDir() { return path.join(this.dir, 'data'); }
    get logFile() { return path.join(this.dir, 'zookeeper.log'); }
    /** PID of the current (or last) java process. */
    get pid() { return this.child?.pid; }
    get isRunning() {
        return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
    }
    get isPaused() { return this.isRunning && this.paused; }
    /** SIGTERM, wait for exit; SIGKILL if it takes longer than `timeoutMs`. */
    async stop(timeoutMs = 10_000) {
        if (!this.isRunning)
            return this.waitExit(5000);
        this.resume(); // a stopped process would hold SIGTERM pending forever
        this.signal('SIGTERM');
        if (await this.waitExit(timeoutMs).then(() => true, () => false))
            return;
        await this.kill();
    }
    /** SIGKILL (a crash: no snapshot, no session close), wait for exit. */
    async kill() {
        if (this.isRunning)
            this.signal('SIGKILL');
        this.paused = false;
        await this.waitExit(10_000);
    }
    /**
     * SIGSTOP: the server keeps its sockets but answers nothing (a hung JVM / long GC pause).
     * Resolves once every JVM thread is stopped: that takes a few ms, during which it still answers.
     */
    async pause() {
        this.signal('SIGSTOP');
        this.paused = true;
        const tasks = `/proc/${this.pid}/task`;
        if (!fs.existsSync(tasks))
            return; // not Linux: best effort
        const deadline = Date.now() + 2000;
        while (!allStopped(tasks) && this.isRunning) {
            if (Date.now() > deadline)
                throw new Error(`ZooKeeper pid ${this.pid} did not stop within 2 s`);
            await sleep(1);
        }
    }
    resume() {
        if (this.paused && this.isRunning)
            this.signal('SIGCONT');
        this.paused = false;
    }
    /**
     * Starts again on the same port and data dir (stopping it first if running) and waits until
     * ready; pass `waitReady: false` for an ensemble member that cannot form a quorum on its own.
     */
    async restart({ waitReady = true } = {}) {
        if (this.disposed)
            throw new Error('ZkServer.restart() after dispose()');
        await this.stop();
        await this.launch(waitReady);
    }
    /**
     * Stops the server, wipes its data dir (snapshots, transaction logs; an ensemble member keeps its
     * myid) and starts it again on the same port: a server that lost its disk. It knows no session,
     * and refuses clients that have seen a later zxid than its own (0).
     */
    async restartEmpty({ waitReady = true } = {}) {
        if (this.disposed)
            throw new Error('ZkServer.restartEmpty() after dispose()');
        await this.stop();
        for (const entry of fs.readdirSync(this.dataDir)) {
            if (entry !== 'myid')
                fs.rmSync(path.join(this.dataDir, entry), { recursive: true, force: true });
        }
        await this.launch(waitReady);
    }
    fourLetter(cmd, timeoutMs = 2000) {
        return fourLetterWord('127.0.0.1', this.port, cmd, timeoutMs);
    }
    /** `mntr` as a record, numeric values parsed. */
    async mntr() {
        const result = {};
        for (const line of (await this.fourLetter('mntr')).split('\n')) {
            const [key, value] = line.split('\t');
            if (!key || value === undefined)
                continue;
            result[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
        }
        return result;
    }
    /** 'standalone' | 'leader' | 'follower' | 'observer', or undefined while not serving / unreachable. */
    async mode(timeoutMs = 1000) {
        try {
            return /^Mode: (\S+)/m.exec(await this.fourLetter('srvr', timeoutMs))?.[1];
        }
        catch {
            return undefined;
        }
    }
    /** Kills the process (if running) and removes the temp dir. Idempotent. */
    async dispose() {
        this.disposed = true;
        await this.kill().catch(() => undefined);
        if (this.ownsDir) {
            fs.rmSync(this.dir, { recursive: true, force: true });
            tempDirs.delete(this.dir);
        }
    }
    async [Symbol.asyncDispose]() { await this.dispose(); }
    /** The last lines of the server log and of the JVM's own stdout/stderr, for error messages. */
    logTail(lines = 25) {
        const tail = (file) => {
            try {
                return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
            }
            catch {
                return '';
            }
        };
        return [`--- ${this.logFile}`, tail(this.logFile), `--- ${path.join(this.dir, 'server.out')}`, tail(path.join(this.dir, 'server.out'))].join('\n');
    }
    /** @internal Writes the config, spawns java, and waits until ready. */
    async launch(waitReady = true) {
        if (this.isRunning)
            throw new Error(`ZooKeeper on port ${this.port} is already running`);
        this.writeConfig();
        const { java, classpath } = resolveRuntime();
        const out = fs.openSync(path.join(this.dir, 'server.out'), 'a');
        const child = spawn(java, [
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
        let spawnError;
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
        if (waitReady)
            await this.waitReady();
    }
    /** @internal Ready = `ruok` answers `imok` AND `srvr` shows a Mode (imok comes before serving). */
    async waitReady(timeoutMs = this.options.readyTimeoutMs ?? 30_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            if (!this.isRunning) {
                const { code, signal } = await this.exited;
                const tail = this.logTail();
                if (/Address already in use/.test(tail))
                    throw new AddressInUseError(this.port, tail);
                throw new Error(`ZooKeeper (port ${this.port}) exited before ready (code ${code}, signal ${signal})\n${tail}`);
            }
            const imok = await this.fourLetter('ruok', 1000).catch(() => '');
            if (imok === 'imok' && (await this.mode()))
                return;
            if (Date.now() > deadline) {
                await this.kill().catch(() => undefined);
                throw new Error(`ZooKeeper (port ${this.port}) not ready within ${timeoutMs} ms\n${this.logTail()}`);
            }
            await sleep(50);
        }
    }
    waitExit(timeoutMs) {
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`ZooKeeper pid ${this.pid} did not exit within ${timeoutMs} ms`)), timeoutMs);
            void this.exited.then(() => { clearTimeout(timer); resolve(); });
        });
    }
    signal(signal) {
        if (!this.isRunning)
            throw new Error(`ZooKeeper on port ${this.port} is not running`);
        this.child.kill(signal);
    }
    writeConfig() {
        const o = this.options;
        const config = {
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
        fs.writeFileSync(path.join(this.dir, 'logback.xml'), `<configuration><appender name="FILE" class="ch.qos.logback.core.FileAppender"><file>${this.logFile}</file>` +
            `<encoder><pattern>%d{ISO8601} %-5p [%t:%C{1}@%L] - %m%n</pattern></encoder></appender>` +
            `<root level="${level}"><appender-ref ref="FILE"/></root></configuration>\n`);
    }
}
/** True when every thread of the process is in state T (stopped) or t (traced). */
function allStopped(tasksDir) {
    try {
        return fs.readdirSync(tasksDir).every((task) => {
            try {
                return /^[Tt]/.test(fs.readFileSync(path.join(tasksDir, task, 'stat'), 'utf8').replace(/^.*\) /s, ''));
            }
            catch {
                return true;
            }
        });
    }
    catch {
        return true;
    }
}
/** The zoo.cfg lines (and the myid file) of a quorum whose only member is `serverId`. */
function singleMemberQuorum(dataDir, serverId, port, quorumPort, electionPort) {
    checkServerId(serverId);
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'myid'), `${serverId}\n`);
    // Without `standaloneEnabled=false` a lone server line still starts a standalone server (id 0).
    return ['standaloneEnabled=false', `server.${serverId}=127.0.0.1:${quorumPort}:${electionPort};127.0.0.1:${port}`];
}
/** ZooKeeper takes 1–255 while TTL nodes are off (the default); 255 is the one that collides with TTL owners. */
function checkServerId(id) {
    if (!Number.isInteger(id) || id < 1 || id > 255)
        throw new Error(`server id must be an integer 1–255, got ${id}`);
}
class AddressInUseError extends Error {
    constructor(port, tail) { super(`ZooKeeper (port ${port}): address already in use\n${tail}`); }
}
export class ZkEnsemble {
    constructor(dir, members, links = []) {
        this.dir = dir;
        this.members = members;
        this.links = links;
    }
    static async start(options = {}) {
        const ids = options.serverIds ?? Array.from({ length: options.size ?? 3 }, (_, i) => i + 1);
        ids.forEach(checkServerId);
        if (new Set(ids).size !== ids.length)
            throw new Error(`server ids must be distinct, got ${ids.join(', ')}`);
        const size = ids.length;
        for (let attempt = 1;; attempt++) {
            const dir = makeTempDir('zk-ensemble-');
            // The links listen before the members' ports are picked: picked first and released, a
            // member's port could be handed to a link ("address in use").
            const links = [];
            if (options.quorumLinks) {
                for (let i = 0; i < size; i++) {
                    links.push([]);
                    for (let j = 0; j < size; j++)
                        links[i].push(i === j ? undefined : await TcpProxy.start('127.0.0.1', 1));
                }
            }
            const ports = await freePorts(3 * size); // client, quorum, election per member
            links.forEach((row) => row.forEach((link, j) => link?.retarget('127.0.0.1', ports[3 * j + 1])));
            const quorumPort = (i, j) => links[i]?.[j]?.port ?? ports[3 * j + 1];
            const members = ids.map((id, i) => {
                const memberDir = path.join(dir, `zk${i + 1}`);
                fs.mkdirSync(path.join(memberDir, 'data'), { recursive: true });
                fs.writeFileSync(path.join(memberDir, 'data', 'myid'), `${id}\n`);
                const quorumLines = ids.map((other, j) => `server.${other}=127.0.0.1:${quorumPort(i, j)}:${ports[3 * j + 2]}`);
                return ZkServer.member(memberDir, ports[3 * i], quorumLines, options);
            });
            const ensemble = new ZkEnsemble(dir, members, links);
            try {
                // Spawn all first: no member can be ready (have a Mode) before a quorum is up.
                for (const member of members)
                    await member.launch(false);
                await Promise.all(members.map((member) => member.waitReady()));
                return ensemble;
            }
            catch (error) {
                await ensemble.dispose();
                if (attempt >= 3 || !(error instanceof AddressInUseError))
                    throw error;
            }
        }
    }
    /** The proxy through which member `from` dials member `to`'s quorum port (a follower dials its leader): needs `quorumLinks`. */
    link(from, to) {
        const link = this.links[from]?.[to];
        if (!link)
            throw new Error(`no quorum link from member ${from} to member ${to} (start the ensemble with quorumLinks)`);
        return link;
    }
    /** Each member's `Mode` (leader, follower, standalone), undefined for a member that does not answer. */
    modes() {
        return Promise.all(this.members.map((member) => member.mode()));
    }
    get connectString() { return this.members.map((member) => member.connectString).join(','); }
    /** The member whose `srvr` says `Mode: leader`, waiting (bounded) through an election. */
    async leader(timeoutMs = 15_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const leaders = await this.withMode('leader');
            if (leaders.length === 1)
                return leaders[0];
            if (Date.now() > deadline)
                throw new Error(`No single ZooKeeper leader within ${timeoutMs} ms (found ${leaders.length})`);
            await sleep(100);
        }
    }
    followers() { return this.withMode('follower'); }
    /** Waits until every running, unpaused member serves as leader/follower, with one leader. */
    async waitForQuorum(timeoutMs = 30_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const live = this.members.filter((member) => member.isRunning && !member.isPaused);
            const modes = await Promise.all(live.map((member) => member.mode()));
            const allServing = modes.every((mode) => mode === 'leader' || mode === 'follower');
            if (live.length > 0 && allServing && modes.filter((mode) => mode === 'leader').length === 1)
                return;
            if (Date.now() > deadline)
                throw new Error(`No ZooKeeper quorum within ${timeoutMs} ms (modes: ${modes.join(', ')})`);
            await sleep(100);
        }
    }
    async dispose() {
        for (const row of this.links)
            for (const link of row)
                await link?.close();
        await Promise.all(this.members.map((member) => member.dispose()));
        fs.rmSync(this.dir, { recursive: true, force: true });
        tempDirs.delete(this.dir);
    }
    async [Symbol.asyncDispose]() { await this.dispose(); }
    async withMode(mode) {
        const live = this.members.filter((member) => member.isRunning && !member.isPaused);
        const modes = await Promise.all(live.map((member) => member.mode()));
        return live.filter((_, i) => modes[i] === mode);
    }
}
//# sourceMappingURL=zk-server.js.map