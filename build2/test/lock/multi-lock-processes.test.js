/**
 * `withLocks` across processes against the shared ZooKeeper server: a child process holds a set
 * (test/fixtures/lock-set-holder.ts) and is SIGKILLed, or SIGSTOPped past its session timeout;
 * this process asks for the same set in the other order and gets all of it once the server
 * expired the child's session, with tokens above the child's; the stopped child, resumed, learns
 * that every lock of its set is lost before it could do anything more under them.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockService } from '../../src/services/lock.service.js';
import { Fixture, sharedConnect, startLockApp, testRoot } from './lock-test-kit.js';
const SESSION_TIMEOUT_MS = 2000;
describe('withLocks across processes (SIGKILL, SIGSTOP)', () => {
    const root = testRoot();
    let app;
    let locks;
    before(async () => {
        app = await startLockApp({ connect: sharedConnect(), root, sessionTimeoutMs: SESSION_TIMEOUT_MS }, []);
        locks = app.get(LockService);
    });
    after(() => app?.close());
    const holder = (names) => new Fixture('lock-set-holder', { ZK_CONNECT: sharedConnect(), LOCK_ROOT: root, NAMES: names, SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS) });
    it('takes over a set whose holder was SIGKILLed, once its session expired', async () => {
        const child = holder('kill-a,kill-b');
        try {
            const { tokens } = await child.message('holding');
            await child.kill();
            const ours = await locks.withLocks(['kill-b', 'kill-a'], (held) => held.map((lock) => lock.fencingToken), { waitMs: 20_000 });
            // ours is in the order asked (b, a); the child's in its own (a, b).
            assert.ok(ours[1] > BigInt(tokens[0]) && ours[0] > BigInt(tokens[1]), `tokens ${ours.join(', ')} after ${tokens.join(', ')}`);
        }
        finally {
            await child.kill();
        }
    });
    it('a holder SIGSTOPped past its session timeout loses the whole set; resumed, it is told before it goes on', async () => {
        const child = holder('stop-a,stop-b');
        try {
            await child.message('holding');
            process.kill(child.pid, 'SIGSTOP');
            let ranWhileStopped = false;
            await locks.withLocks(['stop-b', 'stop-a'], () => void (ranWhileStopped = true), { waitMs: 20_000 });
            assert.ok(ranWhileStopped);
            process.kill(child.pid, 'SIGCONT');
            const lost = await child.message('lost');
            assert.deepEqual([...lost.aborted].sort(), ['stop-a', 'stop-b'], 'every lock of the set is lost');
            assert.deepEqual(lost.stillHeld, [], 'no lease still says it holds');
            assert.equal((await child.message('ended')).error, 'LockLostError');
        }
        finally {
            process.kill(child.pid, 'SIGCONT');
            await child.kill();
        }
    });
});
//# sourceMappingURL=multi-lock-processes.test.js.map