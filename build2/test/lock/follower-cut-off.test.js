/**
 * Issue 29, S5 on real servers: a holder whose server is cut off from the leader.
 *
 * Only the leader expires sessions. A follower whose link to the leader stops delivering keeps
 * answering its clients' pings and local reads until it notices (syncLimit ticks: 5 s here),
 * while the leader, no longer hearing the holder's touches, expires the session one timeout after
 * the last one and grants the lock to a client on another member. The holder must be told (its
 * signal aborted) before that grant, at every session timeout: nothing the cut-off follower
 * answers may count as proof that the session lives.
 *
 * A 3-member ensemble (tickTime 500, syncLimit 10) whose quorum links go through TcpProxies. The
 * holder's client knows only follower F; the contender's only follower G. The cut stops F's link
 * to the leader both ways without closing it.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { ZkEnsemble } from '../support/zk-server.js';
import { openSession, testRoot } from './lock-test-kit.js';
describe('a holder on a follower cut off from the leader', () => {
    let ensemble;
    const sessions = [];
    before(async () => {
        ensemble = await ZkEnsemble.start({ size: 3, quorumLinks: true, heap: '128m', tickTime: 500, extraConfig: { syncLimit: 10, forceSync: 'no' } });
    });
    after(async () => {
        sessions.forEach((session) => session.close());
        await ensemble?.dispose();
    });
    for (const sessionTimeoutMs of [2000, 8000]) {
        it(`is told before the lock is granted on another member (session timeout ${sessionTimeoutMs} ms)`, async (t) => {
            const modes = await ensemble.modes();
            const l = modes.indexOf('leader');
            assert.ok(l >= 0, `a leader (modes: ${modes.join(', ')})`);
            const [f, g] = modes.map((_, i) => i).filter((i) => i !== l);
            const root = testRoot();
            const holderSession = await openSession(ensemble.members[f].connectString, sessionTimeoutMs);
            const contenderSession = await openSession(ensemble.members[g].connectString, sessionTimeoutMs);
            sessions.push(holderSession, contenderSession);
            const holderLocks = new LockClient(holderSession, { root });
            const contenderLocks = new LockClient(contenderSession, { root });
            const lease = await holderLocks.acquire('res');
            let toldAt;
            lease.signal.addEventListener('abort', () => (toldAt = performance.now()), { once: true });
            let grantedAt;
            const contending = contenderLocks.acquire('res').then((granted) => {
                grantedAt = performance.now();
                return granted;
            });
            // The contender queued behind the holder (two nodes) before the cut, on a healthy ensemble.
            await waitFor(async () => (await contenderSession.getChildren(contenderLocks.pathOf('res'))).children.length === 2, {
                timeoutMs: 5000,
                message: 'the contender queued',
            });
            // Let a few heartbeats pass on the healthy link, as a holder that has held for a while.
            await new Promise((resolve) => setTimeout(resolve, sessionTimeoutMs / 2));
            const cutAt = performance.now();
            ensemble.link(f, l).cut();
            try {
                const contenderLease = await withTimeout(contending, 30_000, 'the contender was never granted');
                assert.ok(toldAt !== undefined, `the holder was not told at all by the grant, ${Math.round(grantedAt - cutAt)} ms after the cut`);
                assert.ok(toldAt < grantedAt, `two holders: the holder was told ${Math.round(toldAt - cutAt)} ms after the cut, the contender granted ${Math.round(grantedAt - cutAt)} ms after it`);
                t.diagnostic(`told ${Math.round(toldAt - cutAt)} ms after the cut, granted elsewhere ${Math.round(grantedAt - cutAt)} ms after it`);
                await contenderLease.release();
            }
            finally {
                ensemble.link(f, l).restore();
                await lease.release().catch(() => undefined);
                await waitFor(async () => (await ensemble.modes()).filter((mode) => mode === 'follower').length === 2, {
                    timeoutMs: 30_000,
                    message: 'F rejoined the ensemble',
                });
            }
        });
    }
});
//# sourceMappingURL=follower-cut-off.test.js.map