/**
 * LOOP (not in BENCHMARKS.md; the floor of issue 19's event-loop figures): the event-loop delay of
 * the bare npm `zookeeper` client, with no library, on the request patterns of W6 and of SCALE's
 * held locks, and of an idle process running beside it. The library's figures are read against
 * these: what the bare client already shows is the C client's and the machine's, not the library's.
 *
 * - w6_pattern: 8 sessions walk W6's list (4000 entries over 1000 names); each entry sends the
 *   directory's create (container), the node's create and the listing together, then deletes.
 * - waiters_queueing: one session sends SCALE's 1000 waiters' creates and listings in one go.
 * - held_locks_acquire / _release: one session, 10,000 names, 256 in flight (as SCALE): the same
 *   three requests per name, all nodes kept; then the 10,000 deletes.
 * - idle_beside: a second Node process that only measures, for the whole run.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchEventLoop, type EventLoopDelay } from './event-loop.js';
import { rawNoNode, removeLeftoverDirs } from './leftover-dirs.js';
import { connectRaw, RAW_CONTAINER, RAW_EPHEMERAL_SEQUENTIAL, rawZooKeeperVersion, type RawZooKeeper } from './raw-zookeeper.js';
import { runWorkload, withTimeout } from './workload-main.js';

const ROOT = '/bench/loop';
const IN_FLIGHT = 256;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ignore = (p: Promise<unknown>) => void p.catch(() => undefined);

/** The idle process: resolves with what it measured over `ms`. */
function idleBeside(ms: number): Promise<EventLoopDelay> {
  const child = spawn(process.execPath, [path.join(HERE, 'idle-loop.js'), '--ms', String(ms)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as EventLoopDelay) : reject(new Error(`idle-loop exited ${code}`)))));
}

/** Directory create, node create and listing, sent together; resolves with the node's path. */
async function take(zk: RawZooKeeper, dir: string, flags: number): Promise<string> {
  ignore(zk.create(dir, '', RAW_CONTAINER()));
  const node = zk.create(`${dir}/n-`, '', flags);
  const listed = zk.get_children(dir, false);
  const created = await node;
  await listed;
  return created;
}

runWorkload('LOOP', async ({ connect, params, log }) => {
  const flags = RAW_EPHEMERAL_SEQUENTIAL();
  const sessions: RawZooKeeper[] = [];
  try {
    for (let i = 0; i < params.w6_clients; i++) sessions.push(await connectRaw(connect, params.session_timeout_ms));
    await sessions[0]!.create(ROOT, '', 0).catch(() => undefined);
    const idle = idleBeside(15_000);

    const names = Array.from({ length: params.w6_acquisitions }, (_, i) => `e${(i * 7919) % params.w6_names}`);
    let next = 0;
    let loop = watchEventLoop();
    await withTimeout(Promise.all(sessions.map(async (zk) => {
      for (let i = next++; i < names.length; i = next++) await zk.delete_(await take(zk, `${ROOT}/${names[i]}`, flags), -1);
    })), 60_000, 'the W6 pattern');
    const w6 = loop.stop();

    const zk = sessions[0]!;
    // SCALE's queueing: its 1000 waiters' creates and listings, all sent in one go on one session.
    const queueDir = `${ROOT}/queue`;
    await zk.create(queueDir, '', 0).catch(() => undefined);
    loop = watchEventLoop();
    const queued = Array.from({ length: params.scale_waiters }, () => {
      const node = zk.create(`${queueDir}/n-`, '', flags);
      ignore(zk.get_children(queueDir, false));
      return node;
    });
    const queueNodes = await withTimeout(Promise.all(queued), 60_000, 'the queueing');
    const queueing = loop.stop();
    for (const node of queueNodes) await zk.delete_(node, -1);

    const held: string[] = [];
    next = 0;
    loop = watchEventLoop();
    await withTimeout(Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < params.scale_locks) held.push(await take(zk, `${ROOT}/k-${next++}`, flags));
    })), 60_000, 'the held-locks acquires');
    const acquire = loop.stop();
    loop = watchEventLoop();
    await withTimeout(Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      for (let node = held.pop(); node !== undefined; node = held.pop()) await zk.delete_(node, -1);
    })), 60_000, 'the held-locks releases');
    const release = loop.stop();
    const leftover = [...new Set(names), ...Array.from({ length: params.scale_locks }, (_, i) => `k-${i}`)].map((name) => `${ROOT}/${name}`);
    await removeLeftoverDirs(leftover, (dir) => zk.delete_(dir, -1), rawNoNode);
    log(`W6 pattern p99.9 ${w6.p999_ms} ms; held locks acquire ${acquire.p999_ms} ms, release ${release.p999_ms} ms`);
    return {
      impl: 'node-zookeeper',
      impl_version: rawZooKeeperVersion(),
      recipe: 'bare client: container create + ephemeral sequential create + getChildren sent together, delete',
      w6_pattern: w6,
      waiters_queueing: queueing,
      held_locks_acquire: acquire,
      held_locks_release: release,
      idle_beside: await idle,
    };
  } finally {
    for (const zk of sessions) zk.close();
  }
});
