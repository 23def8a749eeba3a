/**
 * Issue 14, S4 on real servers: a create whose reply is lost, then a reconnection to a member that
 * has not applied it yet. The acquire must find and adopt the node the lost create made, never
 * create a second one behind it (an ephemeral of our own live session ahead of everyone: the lock
 * stuck for good).
 *
 * How a member comes to lag: a 5-member ensemble whose quorum links all go through TcpProxies.
 * The client talks to follower F. Right before the queue create, the leader's side of the quorum
 * links to F and to two other followers is held (`cutReplies`): the create reaches the leader
 * through F and is proposed, but only one follower (G) hears of it and acknowledges it, short of a
 * quorum, so it is neither committed nor answered. The client then loses its connection to F and
 * reconnects to G, whose data tree does not show the proposal. Only once the acquire has looked
 * again (a sync, which the leader holds until the proposal commits; or, without it, a listing
 * that misses the node and a second create) are the links healed and the proposals committed.
 * (The leader itself would not do: it orders the session's listing behind its pending create.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { ensurePath } from '../../src/recipes/queue/ensure-path.js';
import { basenameOf } from '../../src/zookeeper/znode-path.js';
import { FaultySession } from '../support/faulty-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { ZkEnsemble } from '../support/zk-server.js';
import { openSession, queueNodes, testRoot } from './lock-test-kit.js';
const SESSION_TIMEOUT_MS = 10_000;
/** The leader's count of proposals (`mntr`). */
async function proposals(leader) {
    const value = (await leader.mntr()).zk_proposal_count;
    if (typeof value !== 'number')
        throw new Error('mntr has no zk_proposal_count');
    return value;
}
describe('a lost create reply, then a reconnection to a member that has not applied the create', () => {
    let ensemble;
    const proxies = [];
    const sessions = [];
    before(async () => {
        // syncLimit 40 ticks (20 s): the leader keeps its quorum while the links are held.
        ensemble = await ZkEnsemble.start({ size: 5, quorumLinks: true, heap: '128m', extraConfig: { syncLimit: 40, forceSync: 'no' } });
    });
    after(async () => {
        for (const proxy of proxies)
            await proxy.close();
        sessions.forEach((session) => session.close());
        await ensemble?.dispose();
    });
    it('adopts the node the lost create made: one node, granted', async () => {
        const modes = await ensemble.modes();
        const l = modes.indexOf('leader');
        assert.ok(l >= 0, `a leader (modes: ${modes.join(', ')})`);
        const [f, g, ...others] = modes.map((_, i) => i).filter((i) => i !== l);
        const leader = ensemble.members[l];
        // The client's only address: F first, G once retargeted.
        const proxy = await TcpProxy.start('127.0.0.1', ensemble.members[f].port);
        proxies.push(proxy);
        const root = testRoot();
        const observer = await openSession(leader.connectString);
        sessions.push(observer);
        const session = await openSession(proxy.connectString, SESSION_TIMEOUT_MS);
        sessions.push(session);
        const faulty = new FaultySession(session);
        const locks = new LockClient(faulty, { root });
        const dir = locks.pathOf('res');
        await ensurePath(faulty, dir, 'persistent');
        await faulty.sync(dir);
        let createSeq = 0;
        let held = false;
        const before = await proposals(leader);
        faulty.before('create', (request) => {
            if (!request.path.includes('/_c_'))
                return;
            createSeq = request.seq;
            // F still forwards to the leader; neither F nor the two others hear anything back, so only
            // G acknowledges the proposal: short of a quorum.
            for (const i of [f, ...others])
                ensemble.link(i, l).cutReplies();
            held = true;
        }, 1);
        const states = [];
        const stateLog = session.state$.subscribe((change) => states.push(`${change.state}@${faulty.sent.length}`));
        const describeSent = () => `[${states.join(' ')}] ` + faulty.sent.filter((r) => r.seq >= createSeq).map((r) => `${r.op} ${basenameOf(r.path)}`).join('; ');
        const acquiring = locks.acquire('res');
        await waitFor(async () => held && (await proposals(leader)) > before, { timeoutMs: 10_000, message: 'the create was proposed' });
        // The reply is lost with the connection; the session goes on on G.
        proxy.retarget('127.0.0.1', ensemble.members[g].port);
        const reset = states.length;
        proxy.reset();
        await waitFor(() => states.slice(reset).some((state) => state.startsWith('reconnected')), { timeoutMs: SESSION_TIMEOUT_MS, message: 'reconnected to G' }).catch((error) => {
            throw new Error(`${error.message}; ${describeSent()}`);
        });
        // The acquire looks again: a sync (held until the proposal commits), or a listing that misses
        // the node and a second create.
        await waitFor(() => faulty.sent.some((r) => r.seq > createSeq + 1 && (r.op === 'sync' || (r.op === 'create' && r.path.includes('/_c_')))), {
            timeoutMs: 5000,
            message: 'the acquire looked again after reconnecting',
        }).catch((error) => {
            throw new Error(`${error.message}; sent since the create: ${describeSent()}`);
        });
        for (const i of [f, ...others])
            ensemble.link(i, l).restore();
        const lease = await withTimeout(acquiring, 10_000, 'the acquire was never granted').catch(async (error) => {
            throw new Error(`${error.message}: stuck behind a node of our own session? queue: ${(await queueNodes(observer, dir)).join(', ')}; sent since the create: ${describeSent()}`);
        });
        assert.deepEqual(await queueNodes(observer, dir), [basenameOf(lease.path)], 'one node: the one the lost create made');
        assert.equal(faulty.sent.filter((r) => r.op === 'create' && r.path.includes('/_c_')).length, 1, `created once: ${describeSent()}`);
        await lease.release();
        assert.deepEqual(await queueNodes(observer, dir), []);
        stateLog.unsubscribe();
    });
});
//# sourceMappingURL=lagging-member.test.js.map