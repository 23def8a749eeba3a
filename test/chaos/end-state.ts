/**
 * What ZooKeeper holds once every worker is gone: queue znodes left in the election's directory and
 * in every lock's (`<root>/locks/*`), and any node left under a read/write lock's directory
 * (`<root>/rwlocks/*`) or a semaphore's (`<root>/semaphores/*`), and in the partition set's
 * partition locks, assigner election and members (`<root>/partitions/shards/...`): orphans,
 * invariant 3. And the ready records of the lock, the election and each partition. The driver's only
 * ZooKeeper session, opened here, after the last worker exited (no child can inherit its socket).
 */
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { parseQueueNode } from '../../src/recipes/queue/queue-node.js';
import { znodePaths } from '../../src/recipes/znode-paths.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { sleep } from '../support/wait.js';
import { ELECTION_NAME, LOCK_NAME, PARTITION_SET } from './chaos-names.js';
import type { RunEnd } from './checker.js';

export type EndState = Omit<RunEnd, 'finalCounter'>;

/**
 * Waits up to `graceMs` for the queues to empty (a worker killed at the very end leaves nodes until
 * its session expires), then reports what is left.
 */
export async function inspectEndState(connect: string, root: string, graceMs: number): Promise<EndState> {
  const session = new ZkSession({ connectString: connect, sessionTimeoutMs: 4000, connectTimeoutMs: 20_000 });
  try {
    await session.connect();
    const dirs = [znodePaths.lockDir(root, LOCK_NAME), znodePaths.electionDir(root, ELECTION_NAME)];
    const deadline = Date.now() + graceMs;
    let orphans: string[];
    for (;;) {
      const lockDirs = (await children(session, `${root}/locks`)).map((name) => znodePaths.lockDir(root, name));
      orphans = [
        ...(await Promise.all([...new Set([...dirs, ...lockDirs])].map((dir) => queueNodes(session, dir)))).flat(),
        ...(await recipeNodes(session, root)),
        ...(await partitionNodes(session, root)),
      ];
      if (orphans.length === 0 || Date.now() > deadline) break;
      await sleep(200);
    }
    return {
      orphans,
      lockReady: await readReady(session, znodePaths.ready(dirs[0]!)),
      electionReady: await readReady(session, znodePaths.ready(dirs[1]!)),
      partitionReady: await partitionReadies(session, root),
    };
  } finally {
    session.close();
  }
}

async function queueNodes(session: ZkSession, dir: string): Promise<string[]> {
  return (await children(session, dir)).filter((child) => parseQueueNode(child, 'lock') ?? parseQueueNode(child, 'n')).map((child) => `${dir}/${child}`);
}

/** Every node under `<root>/rwlocks/<name>` and `<root>/semaphores/<name>`. */
async function recipeNodes(session: ZkSession, root: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await children(session, `${root}/rwlocks`)) {
    const dir = znodePaths.readWriteLockDir(root, name);
    found.push(...(await children(session, dir)).map((child) => `${dir}/${child}`));
  }
  for (const name of await children(session, `${root}/semaphores`)) {
    const dir = znodePaths.semaphoreDir(root, name);
    found.push(...(await children(session, dir)).map((child) => `${dir}/${child}`));
  }
  return found;
}

/** The partition set's queue nodes (its partitions' locks, its assigner election) and member nodes: every replica left. */
async function partitionNodes(session: ZkSession, root: string): Promise<string[]> {
  const set = znodePaths.partitionSetDir(root, PARTITION_SET);
  const dirs = [...(await children(session, `${set}/locks`)).map((k) => znodePaths.lockDir(set, k)), znodePaths.electionDir(set, 'assigner')];
  const members = (await children(session, `${set}/members`)).map((child) => `${set}/members/${child}`);
  return [...(await Promise.all(dirs.map((dir) => queueNodes(session, dir)))).flat(), ...members];
}

/** Each partition's ready record still there (a completed run deletes it), by partition. */
async function partitionReadies(session: ZkSession, root: string): Promise<Record<string, { state: string; token: string }>> {
  const set = znodePaths.partitionSetDir(root, PARTITION_SET);
  const found: Record<string, { state: string; token: string }> = {};
  for (const k of await children(session, `${set}/locks`)) {
    const ready = await readReady(session, znodePaths.ready(znodePaths.lockDir(set, k)));
    if (ready) found[k] = ready;
  }
  return found;
}

/** The children of `path`, none if it does not exist. */
async function children(session: ZkSession, path: string): Promise<string[]> {
  try {
    return (await session.getChildren(path)).children;
  } catch (error) {
    if (ZooKeeperError.is(error, 'NONODE')) return [];
    throw error;
  }
}

async function readReady(session: ZkSession, path: string): Promise<{ state: string; token: string } | undefined> {
  try {
    const { data } = await session.getData(path);
    const record = JSON.parse(data.toString('utf8')) as { state: string; token: string };
    return { state: record.state, token: record.token };
  } catch (error) {
    if (ZooKeeperError.is(error, 'NONODE')) return undefined;
    throw error;
  }
}
