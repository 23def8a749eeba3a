import { performance } from 'node:perf_hooks';
import { LockClient, ZkSession } from '../build2/src/index.js';
import { ZkServer } from '../build2/test/support/zk-server.js';
const server = await ZkServer.start();
for (const driver of ['typescript','typescript','typescript']) {
  const session = new ZkSession({ connectString: server.connectString, sessionTimeoutMs: 10000, connectTimeoutMs: 5000, driver });
  await session.connect();
  const locks = new LockClient(session, { root: `/bulk-${driver}-${Math.random()}`, identity: 'bulk' });
  const t = performance.now();
  for (let i = 0; i < 1000; i += 100) await Promise.all(Array.from({ length: 100 }, (_, j) => locks.acquire(`bulk-${String(i + j).padStart(4, '0')}`)));
  console.log(driver, Math.round(performance.now() - t), 'ms');
  session.close();
}
await server.dispose();
process.exit(0);
