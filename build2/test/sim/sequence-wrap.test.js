/**
 * The simulation's `sequenceStart` option: a directory's sequence counter starts near 2^31 - 1, so
 * the suffixes of sequential children wrap as ZooKeeper's do, `%010d` of the parent's signed 32-bit
 * cversion (PrepRequestProcessor): `2147483647`, then `-2147483648`, `-2147483647`, ... The
 * schedules use it to run every recipe across the wrap.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';
const SEQUENTIAL = 2;
describe('simulated sequence counters', () => {
    it('start where the option says and wrap past 2^31 - 1 to negative suffixes', async () => {
        const scheduler = new SimScheduler(1);
        const ensemble = new SimulatedEnsemble(scheduler, { serverIds: [1, 2, 3], sequenceStart: 2 ** 31 - 2 });
        const created = [];
        scheduler.schedule(0, () => {
            const handle = new ensemble.binding({ connect: ensemble.connectString, timeout: 4000 });
            handle.init({});
            handle.a_create('/dir', '', 0, (rc) => {
                assert.equal(rc, 0);
                for (let i = 0; i < 4; i++)
                    handle.a_create('/dir/n-', '', SEQUENTIAL, (_rc, _error, path) => created.push(path));
            });
        }, 'client', 'client');
        await scheduler.run({ untilMs: 2000, done: () => created.length === 4 });
        assert.deepEqual(created, ['/dir/n-2147483646', '/dir/n-2147483647', '/dir/n--2147483648', '/dir/n--2147483647']);
    });
});
//# sourceMappingURL=sequence-wrap.test.js.map