import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';
import { installVirtualRuntime } from '../../src/zookeeper/simulated/virtual-runtime.js';
import { ZkSession } from '../../src/zookeeper/zk-session.js';
import { LockClient } from '../../src/recipes/distributed-lock.js';

const scheduler = new SimScheduler(Number(process.argv[2] ?? 1));
scheduler.tracer = (l) => console.log(l);
const uninstall = installVirtualRuntime(scheduler);
const ensemble = new SimulatedEnsemble(scheduler, { serverIds: [1, 2, 255] });
let finished = false;
scheduler.schedule(0, () => {
  void (async () => {
    const session = new ZkSession({ connectString: ensemble.connectString, sessionTimeoutMs: 4000, connectTimeoutMs: 5000, binding: ensemble.binding });
    await session.connect();
    const locks = new LockClient(session, { root: '/app' });
    const lease = await locks.acquire('a');
    console.log('granted', lease.fencingToken);
    await lease.release();
    session.close();
    finished = true;
  })().catch((e) => { console.error('ERR', e); finished = true; });
}, 'start', 'p1');
const t0 = process.hrtime.bigint();
const r = await scheduler.run({ done: () => finished, untilMs: 60_000 });
uninstall();
console.log(r, scheduler.now, scheduler.steps, Number(process.hrtime.bigint() - t0) / 1e6, 'ms', ensemble.nodes());
