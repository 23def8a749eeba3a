/**
 * The benchmark's throwaway ZooKeeper: the test harness's `ZkServer.start()` with the zoo.cfg of
 * BENCHMARKS.md (tickTime 500, sessions 1000..60000 ms, no connection limit, every 4lw allowed,
 * no autopurge), data under /dev/shm so that fsync hits tmpfs, 512 MB of heap. Only this PID is
 * ever stopped.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ZkServer, ZK_DEFAULT_CONFIG } from '../test/support/zk-server.js';
export const BENCH_HEAP = '512m';
export const BENCH_ZOO_CFG = {
    tickTime: 500,
    minSessionTimeout: 1000,
    maxSessionTimeout: 60000,
    initLimit: 10,
    syncLimit: 5,
    maxClientCnxns: 0,
    'admin.enableServer': false,
    '4lw.commands.whitelist': '*',
    'autopurge.purgeInterval': 0,
};
export async function startBenchServer() {
    // The harness puts its temp dir under $ZK_TEST_RUN_DIR when the test runner set one; the
    // benchmark wants /dev/shm (tmpfs), so make sure an inherited one does not redirect it.
    delete process.env.ZK_TEST_RUN_DIR;
    const server = await ZkServer.start({
        heap: BENCH_HEAP,
        logLevel: 'WARN',
        readyTimeoutMs: 60_000,
        tickTime: BENCH_ZOO_CFG.tickTime,
        minSessionTimeout: BENCH_ZOO_CFG.minSessionTimeout,
        maxSessionTimeout: BENCH_ZOO_CFG.maxSessionTimeout,
        // The harness defaults already match the spec; restated so that a change there cannot drift in.
        extraConfig: { ...ZK_DEFAULT_CONFIG, ...BENCH_ZOO_CFG },
    });
    if (!server.dir.startsWith('/dev/shm/'))
        process.stderr.write(`bench: warning: ZooKeeper data is in ${server.dir}, not under /dev/shm\n`);
    return server;
}
/** The `zk` object of the document: what the run used, read back from the server where possible. */
export async function describeServer(server, probe) {
    const srvr = await probe.fourLetter('srvr');
    const versionFull = /^Zookeeper version: (.*)$/m.exec(srvr)?.[1]?.trim() ?? 'unknown';
    const mntr = await probe.snapshot();
    const cfg = readZooCfg(path.join(server.dir, 'zoo.cfg'));
    return {
        version: /^(\d+\.\d+\.\d+)/.exec(versionFull)?.[1] ?? versionFull,
        version_full: versionFull,
        server_state: String(mntr.raw.zk_server_state ?? 'unknown'),
        address: server.connectString,
        pid: server.pid,
        zk_dir: server.dir,
        data_dir: server.dataDir,
        tickTime: Number(cfg.tickTime),
        minSessionTimeout: Number(cfg.minSessionTimeout),
        maxSessionTimeout: Number(cfg.maxSessionTimeout),
        maxClientCnxns: Number(cfg.maxClientCnxns),
        jvm: javaVersion(),
        heap_max: BENCH_HEAP,
    };
}
function readZooCfg(file) {
    const config = {};
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        const eq = line.indexOf('=');
        if (eq > 0)
            config[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
    }
    return config;
}
/** First line of `java -version` (it prints to stderr), or 'unknown'. */
export function javaVersion() {
    return firstLine(spawnSync('java', ['-version'], { encoding: 'utf8', timeout: 10_000 }));
}
export function pythonVersion() {
    return firstLine(spawnSync('python3', ['--version'], { encoding: 'utf8', timeout: 10_000 }));
}
function firstLine(result) {
    const text = `${String(result.stderr ?? '')}\n${String(result.stdout ?? '')}`.trim();
    return result.error ? 'unknown' : (text.split('\n')[0] ?? 'unknown').trim() || 'unknown';
}
//# sourceMappingURL=server.js.map