/**
 * How leadership moves between processes: a graceful stop hands it over at once (the old session
 * is closed, never expired), a SIGKILLed leader only after the server expired its session; a
 * leader killed inside a guarded section is repaired by exactly the next leader, before it reports
 * leadership. Separate OS processes on real ZooKeeper.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, afterEach, before, describe, it } from 'node:test';
import { ZkServer } from '../support/zk-server.js';
import { assertNoOverlap, Cluster, intervals, sharedConnect, testRoot } from './election-cluster.js';
const SESSION_TIMEOUT_MS = 2000;
let cluster;
afterEach(async () => {
    await cluster?.dispose();
    cluster = undefined;
});
/** Waits for the next leader among `among` that reports true after `t`. */
async function nextLeader(c, among, t) {
    const leader = await c.leader(among, 15_000);
    const reported = leader.all('leader', (e) => e.value === true && e.t > t)[0];
    assert.ok(reported, `${leader.name} reported leadership after ${t}`);
    return { leader, at: reported.t };
}
describe('leadership hand-over between processes', () => {
    // Our own server: its log tells a session the server expired from one its client closed.
    let zk;
    before(async () => {
        zk = await ZkServer.start({ logLevel: 'INFO' });
    });
    after(async () => {
        await zk?.dispose();
    });
    const expiredInLog = (sessionId) => fs.readFileSync(zk.logFile, 'utf8').includes(`Expiring session 0x${sessionId},`);
    it('a graceful stop hands over at once (session closed, not expired); SIGKILL only after the session timeout', async () => {
        const c = (cluster = new Cluster({ connect: zk.connectString, root: testRoot(), sessionTimeoutMs: SESSION_TIMEOUT_MS }));
        const a = await c.start('A');
        await a.waitFor('leader', { where: (e) => e.value === true });
        const b = await c.start('B');
        const d = await c.start('C');
        // Graceful: app.close() resigns (deleting our node), then closes the session.
        const stopAt = Date.now();
        await a.quit();
        const first = await nextLeader(c, [b, d], stopAt);
        const aFalse = a.all('leader', (e) => e.value === false && e.t > stopAt)[0];
        assert.ok(aFalse.t < first.at, 'A reported false before the next leader reported true');
        const aStates = a.all('session').map((e) => e.state);
        assert.equal(aStates.at(-1), 'closed', `A's session was closed by A (${aStates.join(' ')})`);
        assert.ok(!aStates.includes('lost') && !aStates.includes('expired'), `A's session never lost or expired (${aStates.join(' ')})`);
        assert.equal(expiredInLog(a.firstSessionId), false, 'the server never expired A\'s session: the hand-over did not wait for it');
        // SIGKILL: nobody deletes the node; the server must expire the session first.
        const killed = first.leader;
        const follower = killed === b ? d : b;
        const killAt = Date.now();
        killed.kill();
        const second = await nextLeader(c, [follower], killAt);
        assert.equal(expiredInLog(killed.firstSessionId), true, `the server expired ${killed.name}'s session before ${follower.name} took over`);
        assert.equal(expiredInLog(follower.firstSessionId), false);
        assert.ok(second.at > killAt);
        assertNoOverlap([a, b, d].flatMap((p) => intervals(p, Date.now())));
    });
});
describe('recovery of a leader killed mid-work', () => {
    it("runs the next leader's recovery handler exactly once, before that leader reports leadership", async () => {
        const c = (cluster = new Cluster({ connect: sharedConnect(), root: testRoot(), sessionTimeoutMs: SESSION_TIMEOUT_MS }));
        const a = await c.start('A');
        await a.waitFor('leader', { where: (e) => e.value === true });
        const b = await c.start('B');
        const d = await c.start('C');
        const aToken = String(a.all('leader', (e) => e.value === true)[0].token);
        a.send('work');
        const working = await a.waitFor('working');
        assert.equal(working.token, aToken, 'the section runs under the leader token');
        const killAt = Date.now();
        a.kill();
        const first = await nextLeader(c, [b, d], killAt);
        const recoveries = [b, d].flatMap((p) => p.all('recovery').map((e) => ({ who: p.name, event: e })));
        assert.equal(recoveries.length, 1, `exactly one recovery: ${JSON.stringify(recoveries)}`);
        const { who, event: recovery } = recoveries[0];
        assert.equal(who, first.leader.name, 'the recovery ran in the new leader');
        assert.ok(recovery.t < first.at, 'recovery ran before the new leader reported leadership');
        assert.equal(recovery.holder, 'A');
        assert.equal(recovery.token, aToken);
        assert.deepEqual(recovery.checkpoint, { step: 'halfway' });
        // The repair was recorded: the leader after this one finds nothing to recover.
        const resignAt = Date.now();
        first.leader.send('resign');
        const other = first.leader === b ? d : b;
        await nextLeader(c, [other], resignAt);
        assert.equal([b, d].flatMap((p) => p.all('recovery')).length, 1, 'recovery ran once per crash');
        assert.equal(other.all('error').length + first.leader.all('error').length, 0);
    });
});
//# sourceMappingURL=hand-over.test.js.map