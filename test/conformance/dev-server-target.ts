/**
 * The dev server's conformance targets: a client over real TCP (each scenario client behind a
 * proxy of its own, as on the real server) to a `DevServer`, through our TypeScript client or
 * ZooKeeper's C client (the `zookeeper` package, the `native` driver), with the real-server
 * target's settings: ZkServer's tickTime (500 ms) and session timeout bounds (1 s to 60 s), a
 * container sweep every 100 ms. Every scenario applies: they need one server, and the dev server
 * is one.
 *
 * The server runs in a worker thread, apart from the clients as a real server is: the C client's
 * close blocks the thread that calls it until the server has answered, and a simulation's
 * virtual runtime, installed in this thread while the simulator target runs, must not reach it.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { DevServerOptions } from '../../src/dev-server/dev-server.js';
import type { ZkDriver } from '../../src/zookeeper/open-session-handle.js';
import { withTimeout } from '../support/wait.js';
import type { ConformanceTarget } from './target.js';
import { ZookeeperTarget } from './zookeeper-target.js';

const OPTIONS: DevServerOptions = { port: 0, tickMs: 500, minSessionTimeoutMs: 1000, maxSessionTimeoutMs: 60_000, containerCheckMs: 100 };
const WAIT_MS = 10_000;

export async function startDevServerTarget(name: string, driver: ZkDriver): Promise<ConformanceTarget> {
  const worker = new Worker(new URL('./dev-server-thread-worker.js', import.meta.url), { workerData: OPTIONS });
  const [started] = (await withTimeout(once(worker, 'message'), WAIT_MS, 'the dev server thread did not start')) as [{ port: number; connectString: string }];
  return ZookeeperTarget.startOn(name, driver, {
    port: started.port,
    connectString: started.connectString,
    dispose: async () => {
      worker.postMessage('close');
      await withTimeout(once(worker, 'message'), WAIT_MS, 'the dev server thread did not close');
      await worker.terminate();
    },
  });
}
