/**
 * The raw npm `zookeeper` package (the ZooKeeper C client under libuv), loaded the way the
 * spec's W5 uses it: `createRequire(import.meta.url)('zookeeper')`, promise API, connected with
 * `new ZooKeeper({connect, timeout, debug_level: WARN, host_order_deterministic: true})`,
 * `init({})`, then waiting for 'connect'. The package ships no module typings we can use here.
 */
import { createRequire } from 'node:module';
import { withTimeout } from './workload-main.js';

export interface RawZooKeeper {
  init(config: Record<string, unknown>): void;
  once(event: 'connect', listener: () => void): void;
  close(): void;
  create(path: string, data: string | Buffer, flags: number): Promise<string>;
  get_children(path: string, watch: boolean): Promise<string[]>;
  delete_(path: string, version: number): Promise<void>;
}

interface RawZooKeeperCtor {
  new (config: Record<string, unknown>): RawZooKeeper;
  /** The package's constants (the class itself has only some of them as statics). */
  readonly constants: { readonly ZOO_EPHEMERAL_SEQUENTIAL: number; readonly ZOO_CONTAINER: number; readonly ZOO_LOG_LEVEL_WARN: number };
}

const require = createRequire(import.meta.url);

export const RAW_EPHEMERAL_SEQUENTIAL = (): number => {
  const flags = (require('zookeeper') as RawZooKeeperCtor).constants.ZOO_EPHEMERAL_SEQUENTIAL;
  // An undefined flag creates a plain persistent node without complaint (it once did here).
  if (typeof flags !== 'number') throw new Error('the zookeeper package exports no ZOO_EPHEMERAL_SEQUENTIAL constant');
  return flags;
};

export const RAW_CONTAINER = (): number => {
  const flags = (require('zookeeper') as RawZooKeeperCtor).constants.ZOO_CONTAINER;
  if (typeof flags !== 'number') throw new Error('the zookeeper package exports no ZOO_CONTAINER constant');
  return flags;
};

export function rawZooKeeperVersion(): string {
  return (require('zookeeper/package.json') as { version: string }).version;
}

export async function connectRaw(connect: string, timeoutMs: number): Promise<RawZooKeeper> {
  const ZooKeeper = require('zookeeper') as RawZooKeeperCtor;
  const zk = new ZooKeeper({ connect, timeout: timeoutMs, debug_level: ZooKeeper.constants.ZOO_LOG_LEVEL_WARN, host_order_deterministic: true });
  const connected = new Promise<void>((resolve) => zk.once('connect', resolve));
  zk.init({});
  try {
    await withTimeout(connected, 15_000, `no session to ${connect}`);
  } catch (error) {
    zk.close();
    throw error;
  }
  return zk;
}

/** One W5 cycle: create (EPHEMERAL_SEQUENTIAL, empty) → get_children (no watch) → delete_, each awaited. */
export async function rawCycle(zk: RawZooKeeper, dir: string, flags: number): Promise<[number, number, number, number]> {
  const now = () => Number(process.hrtime.bigint()) / 1e6;
  const t0 = now();
  const created = await zk.create(`${dir}/n-`, '', flags);
  const t1 = now();
  await zk.get_children(dir, false);
  const t2 = now();
  await zk.delete_(created, -1);
  return [t0, t1, t2, now()];
}
