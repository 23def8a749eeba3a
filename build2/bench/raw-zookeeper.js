/**
 * The raw npm `zookeeper` package (the ZooKeeper C client under libuv), loaded the way the
 * spec's W5 uses it: `createRequire(import.meta.url)('zookeeper')`, promise API, connected with
 * `new ZooKeeper({connect, timeout, debug_level: WARN, host_order_deterministic: true})`,
 * `init({})`, then waiting for 'connect'. The package ships no module typings we can use here.
 */
import { createRequire } from 'node:module';
import { withTimeout } from './workload-main.js';
const require = createRequire(import.meta.url);
export const RAW_EPHEMERAL_SEQUENTIAL = () => {
    const flags = require('zookeeper').constants.ZOO_EPHEMERAL_SEQUENTIAL;
    // An undefined flag creates a plain persistent node without complaint (it once did here).
    if (typeof flags !== 'number')
        throw new Error('the zookeeper package exports no ZOO_EPHEMERAL_SEQUENTIAL constant');
    return flags;
};
export const RAW_CONTAINER = () => {
    const flags = require('zookeeper').constants.ZOO_CONTAINER;
    if (typeof flags !== 'number')
        throw new Error('the zookeeper package exports no ZOO_CONTAINER constant');
    return flags;
};
export function rawZooKeeperVersion() {
    return require('zookeeper/package.json').version;
}
export async function connectRaw(connect, timeoutMs) {
    const ZooKeeper = require('zookeeper');
    const zk = new ZooKeeper({ connect, timeout: timeoutMs, debug_level: ZooKeeper.constants.ZOO_LOG_LEVEL_WARN, host_order_deterministic: true });
    const connected = new Promise((resolve) => zk.once('connect', resolve));
    zk.init({});
    try {
        await withTimeout(connected, 15_000, `no session to ${connect}`);
    }
    catch (error) {
        zk.close();
        throw error;
    }
    return zk;
}
/** One W5 cycle: create (EPHEMERAL_SEQUENTIAL, empty) → get_children (no watch) → delete_, each awaited. */
export async function rawCycle(zk, dir, flags) {
    const now = () => Number(process.hrtime.bigint()) / 1e6;
    const t0 = now();
    const created = await zk.create(`${dir}/n-`, '', flags);
    const t1 = now();
    await zk.get_children(dir, false);
    const t2 = now();
    await zk.delete_(created, -1);
    return [t0, t1, t2, now()];
}
//# sourceMappingURL=raw-zookeeper.js.map