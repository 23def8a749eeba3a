/**
 * The election through the session's connection states (a TcpProxy cut, a real expiry): leadership
 * is dropped on suspension and reported again only once our node is confirmed ours; a node gone
 * meanwhile or an expired session means queueing again at the back.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LeadershipLostError } from '../../src/errors/leadership-lost.error.js';
import { connectionLoss, FaultySession } from '../support/faulty-session.js';
import { waitFor } from '../support/wait.js';
import { currentSeq, expireSession, kitPerTest, Recorder } from './election-kit.js';
const newKit = kitPerTest();
describe('LeaderElection through connection states', () => {
    /** A leads through a TcpProxy, on a counting FaultySession. 4 s sessions: a cut healed within a second or two never expires it. */
    async function leaderBehindProxy() {
        const k = newKit();
        const p = await k.proxy();
        const session = new FaultySession(await k.session(p.connectString, 4000));
        const a = k.election(session, 'A');
        const leading = new Recorder(a.isLeader$);
        // Subscribed before the election: a state change is recorded before the election's reaction.
        const states = new Recorder(session.state$);
        a.join();
        const led = await leading.next(true);
        return { k, p, session, a, leading, led, states };
    }
    it('reports false as soon as the connection is suspended (policy immediate), and true again after reconnection only once its node is confirmed ours', async () => {
        const { k, p, session, a, leading, states } = await leaderBehindProxy();
        const [node] = await k.queueNodes();
        const cutAt = currentSeq();
        p.cut();
        const suspended = await waitFor(() => states.values.find((r) => r.seq > cutAt && r.value.state === 'suspended'), { timeoutMs: 6000 });
        const lostLeadership = await leading.next(false, cutAt);
        assert.ok(lostLeadership.seq === suspended.seq + 1, 'false right at the suspension');
        assert.equal(a.isLeader, false);
        const sentBefore = session.sent.length;
        p.restore();
        const reconnected = await waitFor(() => states.values.find((r) => r.seq > cutAt && r.value.state === 'reconnected'), { timeoutMs: 6000 });
        const again = await leading.next(true, reconnected.seq);
        const checks = session.sent.slice(sentBefore).filter((r) => r.op === 'getData' && r.path === node);
        assert.equal(checks.length, 1, 'one read of our own node (exists + ephemeralOwner + watch) before reporting true');
        assert.ok(again.seq > reconnected.seq);
        assert.deepEqual(await k.queueNodes(), [node], 'same node, same place: the session survived');
    });
    it('a leader section whose leadership ended while it was entering (connection dropped) does not start: the tenure\'s end stops its entry', async () => {
        const { p, session, a, leading, led } = await leaderBehindProxy();
        // The section's first read of the ready znode: the network goes, leadership is reported
        // false (policy immediate), and the read itself is lost.
        let stopped = led;
        session.before('getData', async (request) => {
            p.cut();
            stopped = await leading.next(false, led.seq);
            throw connectionLoss('getData', request.path);
        }, 1);
        let ran = false;
        const section = a.runAsLeader(() => void (ran = true));
        await waitFor(() => session.state === 'suspended', { timeoutMs: 6000, message: 'suspended' });
        p.restore(); // well within the session timeout: the same session comes back
        // The tenure's signal ends the entry's retry (SectionOwner.signal) or, had the entry finished
        // first, the check after it: either way the section ends with LeadershipLostError unstarted.
        await assert.rejects(section, LeadershipLostError);
        assert.equal(ran, false, 'the work did not start');
        await leading.next(true, stopped.seq); // leading again, under a new tenure
    });
    it('after reconnection, joins again instead of leading when its node is gone', async () => {
        const k = newKit();
        const p = await k.proxy();
        const session = await k.session(p.connectString, 4000);
        const a = k.election(session, 'A');
        const leading = new Recorder(a.isLeader$);
        a.join();
        await leading.next(true);
        const firstToken = a.token;
        const [node] = await k.queueNodes();
        const cutAt = currentSeq();
        p.cut();
        await leading.next(false, cutAt);
        const admin = await k.session();
        await admin.delete(node); // deleted by hand while A cannot see it
        p.restore();
        await leading.next(true, cutAt);
        const [newNode] = await k.queueNodes();
        assert.notEqual(newNode, node, 'led again only with a new node');
        assert.ok(a.token > firstToken, 'with a new, larger token');
    });
    it('after its session expired, joins again with the new session at the back of the queue', async () => {
        const k = newKit();
        const aSession = await k.session();
        const a = k.election(aSession, 'A');
        const b = k.election(await k.session(), 'B');
        const [ra, rb] = [new Recorder(a.isLeader$), new Recorder(b.isLeader$)];
        a.join();
        await ra.next(true);
        b.join();
        await waitFor(async () => (await b.participants()).length === 2, { timeoutMs: 5000 });
        const oldSession = aSession.sessionId;
        const states = new Recorder(aSession.state$);
        await expireSession(k.connect, aSession);
        assert.ok(states.values.some((r) => r.value.state === 'expired'));
        // B may lead before A hears of its expiry (the server tells A only when it reconnects), but
        // never while A still reports leadership: A reported false when its connection was taken.
        const bTrue = await rb.next(true);
        const aBefore = ra.values.filter((r) => r.seq < bTrue.seq).at(-1);
        assert.equal(aBefore.value, false, 'A reported false before B reported true');
        await waitFor(async () => JSON.stringify(await b.participants()) === JSON.stringify(['B', 'A']), { timeoutMs: 10_000, message: 'A re-joined at the back' });
        assert.notEqual(aSession.sessionId, oldSession);
        assert.equal(a.isParticipating, true);
        assert.equal(ra.values.filter((r) => r.seq > bTrue.seq && r.value === true).length, 0, 'A did not lead again');
    });
});
//# sourceMappingURL=leader-connection-states.test.js.map