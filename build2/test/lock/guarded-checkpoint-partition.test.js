/**
 * End to end (Nest application, LockService, real ZooKeeper behind a TcpProxy): a guarded
 * `withLock` whose `fn` checkpoints while the server is unreachable ends with `LockLostError`
 * once the lease is lost, instead of retrying the write until a reconnection that never comes.
 * The lease's signal is what ends the section's retries (the section owner's signal in
 * `LockService.runPinned`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { parseRecord } from '../../src/recipes/ready/ready-record.js';
import { znodePaths } from '../../src/recipes/znode-paths.js';
import { LockService } from '../../src/services/lock.service.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { withTimeout } from '../support/wait.js';
import { openSession, sharedConnect, startLockApp, testRoot } from './lock-test-kit.js';
describe('guarded withLock checkpointing through a partition', () => {
    let observer;
    before(async () => {
        observer = await openSession(sharedConnect());
    });
    after(() => observer?.close());
    it('ends with LockLostError once the lease is lost, not at the reconnection', async () => {
        const [host, port] = sharedConnect().split(',')[0].split(':');
        const proxy = await TcpProxy.start(host, Number(port));
        const root = testRoot();
        let app;
        try {
            app = await startLockApp({ connect: proxy.connectString, root, sessionTimeoutMs: 2000, drainTimeoutMs: 1000 }, []);
            const locks = app.get(LockService);
            let checkpointError;
            let signalAborted = false;
            let finished = 0;
            const call = locks.withLock('report', async (lock) => {
                await lock.checkpoint({ step: 1 }); // connected: recorded
                proxy.cut(); // the server becomes unreachable; nothing is closed, nothing answers
                try {
                    await lock.checkpoint({ step: 2 });
                }
                catch (error) {
                    checkpointError = error;
                    signalAborted = lock.signal.aborted;
                    throw error;
                }
                finished++;
            }, { recover: () => undefined });
            call.catch(() => undefined);
            // Generous bound: the lease is lost within the 2 s session timeout; the partition never heals.
            await assert.rejects(withTimeout(call, 15_000, 'the guarded call still waits for a reconnection'), LockLostError);
            assert.ok(checkpointError instanceof LockLostError, `the checkpoint failed with ${String(checkpointError)}`);
            assert.ok(signalAborted, 'the lease was lost when the checkpoint gave up');
            assert.equal(finished, 0);
            // The section never completed: the next holder finds the state dirty, with the last recorded checkpoint.
            const { data } = await observer.getData(znodePaths.ready(`${root}/locks/report`));
            const record = parseRecord('ready', data);
            assert.equal(record.state, 'dirty');
            assert.deepEqual(record.checkpoint, { step: 1 });
        }
        finally {
            // Proxy first: the C client's synchronous close would wait for an answer the proxy (in this process) cannot forward.
            await proxy.close();
            await withTimeout(app?.close() ?? Promise.resolve(), 15_000, 'app.close()');
        }
    });
});
//# sourceMappingURL=guarded-checkpoint-partition.test.js.map