/**
 * The dev server's conformance target: our TypeScript client over real TCP (each scenario client
 * behind a proxy of its own, as on the real server) to a `DevServer` in this process, with the
 * real-server target's settings: ZkServer's tickTime (500 ms) and session timeout bounds (1 s to
 * 60 s), a container sweep every 100 ms. Every scenario applies: they need one server, and the
 * dev server is one.
 */
import { DevServer } from '../../src/dev-server/dev-server.js';
import type { ConformanceTarget } from './target.js';
import { ZookeeperTarget } from './zookeeper-target.js';

export async function startDevServerTarget(): Promise<ConformanceTarget> {
  const server = await DevServer.start({ port: 0, tickMs: 500, minSessionTimeoutMs: 1000, maxSessionTimeoutMs: 60_000, containerCheckMs: 100 });
  return ZookeeperTarget.startOn('dev-server', 'typescript', {
    port: server.port,
    connectString: server.connectString,
    dispose: () => server.close(),
  });
}
