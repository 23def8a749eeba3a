/**
 * W5's two raw clients behind one shape, so that the floor is measured the same way on each
 * driver: `native`, the npm `zookeeper` package (the C client), loaded without the library; and
 * `typescript`, the library's own protocol client (`ProtocolHandle`) used directly, without
 * `ZkSession` or any recipe. A cycle is create (ephemeral sequential, empty) → getChildren (no
 * watch) → delete (version -1), each awaited, with a timestamp before and after every call.
 */
import type { BenchDriver } from './params.js';
import { connectRaw, RAW_EPHEMERAL_SEQUENTIAL, rawCycle, rawZooKeeperVersion } from './raw-zookeeper.js';

export interface FloorClient {
  /** The result key and `impl` of W5 on this client. */
  readonly impl: string;
  readonly implVersion: string;
  readonly api: string;
  create(path: string): Promise<string>;
  remove(path: string): Promise<void>;
  cycle(dir: string): Promise<[number, number, number, number]>;
  close(): void;
}

/** W5's result key on `driver`: `node-zookeeper` (as before the TypeScript driver), `typescript-client`. */
export const floorKey = (driver: BenchDriver): string => (driver === 'native' ? 'node-zookeeper' : 'typescript-client');

export async function openFloorClient(driver: BenchDriver, connect: string, sessionTimeoutMs: number): Promise<FloorClient> {
  if (driver === 'typescript') {
    // Loaded only here: the native floor must not load the library.
    const { openProtocolFloor } = await import('./protocol-floor.js');
    return { impl: floorKey('typescript'), ...(await openProtocolFloor(connect, sessionTimeoutMs)) };
  }
  const zk = await connectRaw(connect, sessionTimeoutMs);
  const flags = RAW_EPHEMERAL_SEQUENTIAL();
  return {
    impl: floorKey('native'),
    implVersion: rawZooKeeperVersion(),
    api: 'zookeeper (npm) promise API: create(EPHEMERAL_SEQUENTIAL) / get_children(no watch) / delete_(-1)',
    create: (path) => zk.create(path, '', flags),
    remove: (path) => zk.delete_(path, -1),
    cycle: (dir) => rawCycle(zk, dir, flags),
    close: () => zk.close(),
  };
}
