/**
 * What ZooKeeper holds once every worker is gone: queue znodes left in the lock and election
 * directories (orphans, invariant 3) and the lock's ready record. The driver's only ZooKeeper session,
 * opened here, after the last worker exited (no child can inherit its socket).
 */
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { parseQueueNode } from '../../src/recipes/queue/queue-node.js';
import { znodePaths } from '../../src/recipes/znode-paths.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { sleep } from '../support/wait.js';
import { ELECTION_NAME, LOCK_NAME } from './chaos-names.js';
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
      orphans = (await Promise.all(dirs.map((dir) => queueNodes(session, dir)))).flat();
      if (orphans.length === 0 || Date.now() > deadline) break;
      await sleep(200);
    }
    return {
      orphans,
      lockReady: await readReady(session, znodePaths.ready(dirs[0]!)),
      electionReady: await readReady(session, znodePaths.ready(dirs[1]!)),
    };
  } finally {
    session.close();
  }
}

async function queueNodes(session: ZkSession, dir: string): Promise<string[]> {
  try {
    const { children } = await session.getChildren(dir);
    return children.filter((child) => parseQueueNode(child, 'lock') ?? parseQueueNode(child, 'n')).map((child) => `${dir}/${child}`);
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
