/**
 * W5 on the library's TypeScript protocol client: a bare `ProtocolHandle` (the driver `ZkSession`
 * uses by default), connected and driven directly, so its three round trips compare with the
 * npm `zookeeper` package's in the same run. Only `floor-client.ts` loads this file.
 */
import { ProtocolHandle } from '../src/zookeeper/protocol/protocol-handle.js';
import type { FloorClient } from './floor-client.js';
import { implVersion } from './params.js';
import { now } from './stats.js';
import { withTimeout } from './workload-main.js';

export async function openProtocolFloor(connect: string, sessionTimeoutMs: number): Promise<Omit<FloorClient, 'impl'>> {
  let opened!: () => void;
  let failed!: (error: Error) => void;
  const connected = new Promise<void>((resolve, reject) => {
    opened = resolve;
    failed = reject;
  });
  const handle = new ProtocolHandle({ connectString: connect, sessionTimeoutMs }, {
    onConnected: () => opened(),
    onConnecting: () => undefined, // a dropped connection is retried by the handle; W5 would see it as slow calls
    onClosed: (code) => failed(new Error(`the session to ${connect} closed with code ${code}`)),
  });
  try {
    await withTimeout(connected, 15_000, `no session to ${connect}`);
  } catch (error) {
    handle.close();
    throw error;
  }
  return {
    implVersion: implVersion(),
    api: 'ProtocolHandle (src/zookeeper/protocol): create(ephemeral_sequential) / getChildren(no watch) / delete(-1)',
    create: (path) => handle.create(path, null, 'ephemeral_sequential'),
    remove: (path) => handle.delete(path, -1),
    async cycle(dir) {
      const t0 = now();
      const created = await handle.create(`${dir}/n-`, null, 'ephemeral_sequential');
      const t1 = now();
      await handle.getChildren(dir);
      const t2 = now();
      await handle.delete(created, -1);
      return [t0, t1, t2, now()];
    },
    close: () => handle.close(),
  };
}
