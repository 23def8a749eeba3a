/**
 * Apache Curator as a peer in the benchmark's own run: W1, W2, W7 or W8 (`--workload`) run by
 * bench/peers/CuratorBench.java, compiled by the harness into `--classes` (curator-build.ts), on
 * the same server, between the same `mntr` snapshots as the library's workloads. For each measured
 * region the Java program opens its sessions and warms up (the counts of params.ts), prints READY
 * and waits; this process takes S0 and sends GO; the program runs the region and prints its raw
 * timings; this process takes S1 and sends NEXT, and only then does the program close its
 * sessions. The timings are summarized here, with the Node workloads' own code (stats.ts), into
 * the result fields of those workloads, under the key `curator`.
 *
 * Paths: the library's root is the workload's path (/bench/w1, lock /bench/w1/locks/bench);
 * Curator's is /bench/curator-w1 and so on, its lock the recipe's directory
 * /bench/curator-w1/bench. The harness creates the roots; W7's and W8's lock directory is made by
 * the first operation, inside the measured region, as the library's is.
 */
import { CURATOR_JARS, JAVA } from '../test/support/java.js';
import { CURATOR_WORKLOADS, curatorRoot } from './curator-build.js';
import { curatorResult, type Region } from './curator-results.js';
import { serverDelta } from './mntr.js';
import { LOCK_NAME, type BenchParams } from './params.js';
import { PeerProcess } from './peer-process.js';
import { parseArgs, runWorkload } from './workload-main.js';

/** A region's warm-up and run; this bounds a hang and says where. */
const STEP_TIMEOUT_MS = 120_000;

const args = parseArgs(process.argv.slice(2));
const workload = String(args.get('workload'));

/** The parameters as `key=value` arguments (lists joined by commas). */
function javaParams(params: BenchParams): string[] {
  return Object.entries(params)
    .filter(([, value]) => typeof value === 'number' || Array.isArray(value))
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`);
}

runWorkload(`${workload} (curator)`, async ({ connect, params, probe, log }) => {
  if (!CURATOR_WORKLOADS.some((w) => w === workload)) throw new Error(`--workload must be one of ${CURATOR_WORKLOADS.join(', ')}, got ${workload}`);
  const classes = args.get('classes');
  if (typeof classes !== 'string') throw new Error('--classes DIR (the compiled bench/peers) is required');
  const lockPath = `${curatorRoot(workload)}/${LOCK_NAME}`;
  // W1A: the credentials of the library's W1A (w1-uncontended.ts), with Curator's creator-only ACLProvider.
  const auth = workload === 'W1A' ? ['auth=bench:w1a-secret'] : [];
  const peer = new PeerProcess(JAVA, ['-cp', [classes, ...CURATOR_JARS].join(':'), 'CuratorBench', workload, connect, `path=${lockPath}`, ...auth, ...javaParams(params)], (line) => log(`[java] ${line}`));
  try {
    const info = /^INFO (.*)$/.exec(await peer.next(60_000, 'INFO line'));
    if (!info) throw new Error('the peer did not start with its INFO line');
    const regions = new Map<string, Region>();
    for (;;) {
      const line = await peer.next(STEP_TIMEOUT_MS, 'READY or DONE');
      if (line === 'DONE') break;
      const ready = /^READY (\S+)$/.exec(line);
      if (!ready) throw new Error(`unexpected line from the peer: ${line.slice(0, 200)}`);
      const label = ready[1]!;
      const s0 = await probe.snapshot();
      peer.send('GO');
      const result = /^RESULT (\S+) (.*)$/.exec(await peer.next(STEP_TIMEOUT_MS, `the RESULT of ${label}`));
      const s1 = await probe.snapshot();
      if (!result || result[1] !== label) throw new Error(`expected the RESULT of ${label}`);
      regions.set(label, { timings: JSON.parse(result[2]!) as Region['timings'], server: serverDelta(s0, s1) });
      log(`${label} measured`);
      peer.send('NEXT');
    }
    const code = await peer.exited;
    if (code !== 0) throw new Error(`the peer exited with ${code}`);
    const identity = {
      impl: 'curator',
      ...(JSON.parse(info[1]!) as { impl_version: string; zookeeper_client_version: string }),
      session_timeout_ms: params.session_timeout_ms,
      lock_path: lockPath,
    };
    return curatorResult(workload, params, identity, regions);
  } finally {
    peer.kill();
  }
});
