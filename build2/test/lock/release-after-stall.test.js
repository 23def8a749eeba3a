/**
 * A release sent while the connection still looks up must not outlive the session's loss. Here the
 * process stalls (SIGSTOP) while the network falls silent; on resume it reads a watch event that
 * waited in its socket (which keeps the C client from declaring the connection dead for 2/3 of the
 * timeout more) and releases a lock; the session-loss clock, dating the last contact from the
 * stall, says `lost` well before that. The release must resolve then: its delete goes on in the
 * background, and the node goes with the session anyway. Found by the simulation (issue 15); run
 * on the simulated ensemble, where the stall, the silence and the event can be put in this order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';
import { installVirtualRuntime } from '../../src/zookeeper/simulated/virtual-runtime.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
describe('a release sent just before the session counts as lost', () => {
    it('resolves once the session counts as lost, not when the C client gives the connection up', async () => {
        const scheduler = new SimScheduler(11);
        const uninstall = installVirtualRuntime(scheduler);
        try {
            const ensemble = new SimulatedEnsemble(scheduler, { serverIds: [1] });
            const operator = ensemble.operatorSession();
            let session;
            let lease;
            scheduler.schedule(0, () => {
                session = new ZkSession({ connectString: ensemble.connectString, sessionTimeoutMs: 6000, connectTimeoutMs: 10_000, binding: ensemble.binding });
                void session.connect().then(async () => {
                    lease = await new LockClient(session, { root: '/release' }).acquire('a');
                    await session.create('/release/watched', null, 'persistent');
                    await session.getData('/release/watched', () => undefined); // the event that will wait in the socket
                });
            }, 'start', 'process');
            await scheduler.run({ done: () => lease !== undefined, untilMs: 2000 });
            assert.ok(lease, 'the lock was granted');
            let lostAt;
            session.state$.subscribe((change) => change.state === 'lost' && (lostAt ??= scheduler.now));
            const t0 = scheduler.now;
            scheduler.schedule(200, () => scheduler.pause('process', 3000), 'SIGSTOP', 'sim');
            // While it is stopped, the watched node changes: the event reaches its socket, then silence.
            scheduler.schedule(500, () => ensemble.operatorWrite(operator, { op: 'setData', path: '/release/watched', data: Buffer.from('x'), version: -1 }), 'change', 'sim');
            scheduler.schedule(800, () => ensemble.partition('process', 60_000), 'silence', 'sim');
            let releasedAt;
            // Right after the resume (3.2 s), while the connection still looks up: release.
            scheduler.schedule(3300, () => void lease.release().then(() => (releasedAt = scheduler.now)), 'release', 'process');
            await scheduler.run({ done: () => releasedAt !== undefined, untilMs: t0 + 20_000 });
            assert.ok(lostAt !== undefined, 'the session counted as lost');
            assert.ok(releasedAt !== undefined, 'the release resolved');
            assert.ok(releasedAt - lostAt < 100, `the release resolved ${Math.round(releasedAt - lostAt)} ms after the session counted as lost (at ${Math.round(lostAt - t0)} ms)`);
            session.close();
        }
        finally {
            uninstall();
        }
    });
});
//# sourceMappingURL=release-after-stall.test.js.map