/**
 * Leadership never overlaps across OS processes: one leader among three, a leader cut off from
 * ZooKeeper, a leader frozen past its session timeout. Real ZooKeeper (the shared server),
 * participants are separate Nest processes (test/fixtures/election-node.ts); intervals are
 * compared on the machine's wall clock.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait.js';
import { assertNoOverlap, Cluster, intervals, sharedConnect, testRoot } from './election-cluster.js';
const SESSION_TIMEOUT_MS = 2000;
let cluster;
let proxy;
afterEach(async () => {
    await cluster?.dispose();
    await proxy?.close();
    cluster = proxy = undefined;
});
function newCluster() {
    return (cluster = new Cluster({ connect: sharedConnect(), root: testRoot(), sessionTimeoutMs: SESSION_TIMEOUT_MS, heartbeat: true }));
}
/** Waits until `asker` lists `expected` as the election's participants, in this order. */
async function expectQueue(asker, expected) {
    await waitFor(async () => JSON.stringify(await participantsOf(asker)) === JSON.stringify(expected), { timeoutMs: 10_000, intervalMs: 50, message: `participants ${expected.join(', ')} (as ${asker.name} sees them)` });
}
/** The election's participants in queue order, as `asker` reads them. */
async function participantsOf(asker) {
    const from = asker.events.length;
    asker.send('participants');
    return (await asker.waitFor('participants', { from, timeoutMs: 5000 })).list;
}
/** Waits until `count` participants are queued; returns them in queue order. */
async function queueOf(asker, count) {
    return waitFor(async () => {
        const list = await participantsOf(asker);
        return list.length === count ? list : undefined;
    }, { timeoutMs: 10_000, message: `${count} participants queued (as ${asker.name} sees them)` });
}
function trueAfter(participant, t) {
    return participant.all('leader', (e) => e.value === true && e.t > t)[0];
}
function falseAfter(participant, t) {
    return participant.all('leader', (e) => e.value === false && e.t > t)[0];
}
describe('leader election across processes', () => {
    it('has exactly one leader among three processes, and their leadership intervals never overlap', async () => {
        const c = newCluster();
        // Started together, so that they race for the empty election.
        const all = await Promise.all(['A', 'B', 'C'].map((name) => c.start(name)));
        let leader = await c.leader();
        // Hand leadership around: each resign wakes the next in line; the resigned one queues at the back.
        for (let round = 0; round < 3; round++) {
            const queue = await queueOf(leader, 3);
            assert.equal(queue[0], leader.name, `the leader heads the queue ${queue.join(', ')}`);
            assert.deepEqual([...queue].sort(), ['A', 'B', 'C']);
            const from = Date.now();
            leader.send('resign');
            await leader.waitFor('resigned', { where: (e) => e.t > from });
            const next = await c.leader(all.filter((p) => p !== leader));
            assert.ok(trueAfter(next, from), `${next.name} reports leadership after ${leader.name} resigned`);
            leader.send('join');
            await expectQueue(next, [...queue.slice(1), queue[0]]);
            leader = next;
        }
        // Graceful stops hand over too: stop whoever leads, until nobody is left.
        for (let alive = all; alive.length > 0; alive = alive.filter((p) => p.isAlive))
            await (await c.leader(alive)).quit();
        const end = Date.now();
        const compared = assertNoOverlap(all.flatMap((p) => intervals(p, end)));
        // 1 + 3 resignations + 2 hand-overs on shutdown (more only if a stall made a leader re-verify).
        assert.ok(compared >= 6, `expected at least 6 leadership intervals, saw ${compared}`);
        for (const participant of all) {
            assert.equal(participant.all('leader-complete').length, 1, `${participant.name}: isLeader$ completed on shutdown`);
            assert.equal(participant.all('error').length, 0, `${participant.name}: ${JSON.stringify(participant.all('error'))}`);
        }
    });
    it('a leader cut off from ZooKeeper reports false before any other process reports true (policy immediate)', async () => {
        const c = newCluster();
        const [host, port] = sharedConnect().split(',')[0].split(':');
        proxy = await TcpProxy.start(host, Number(port));
        const a = await c.start('A', { connect: proxy.connectString });
        await a.waitFor('leader', { where: (e) => e.value === true });
        const [b, d] = await Promise.all([c.start('B'), c.start('C')]);
        assert.equal((await queueOf(b, 3))[0], 'A');
        // Dropped and refused, so that A sees the disconnection at once (a silent cut would count its
        // session lost before the C client noticed the silence: no suspension to tell the policies apart).
        const cutAt = Date.now();
        proxy.refuse(true);
        proxy.reset();
        const next = await c.leader([b, d], 15_000);
        const nextTrue = trueAfter(next, cutAt);
        const aFalse = falseAfter(a, cutAt);
        assert.ok(aFalse, 'A reported false');
        assert.ok(aFalse.t < nextTrue.t, `A reported false (${aFalse.t}) before ${next.name} reported true (${nextTrue.t})`);
        // Immediate: at the suspension, not later at `lost`.
        const states = a.events.filter((e) => e.t > cutAt && (e.ev === 'session' || e.ev === 'leader')).map((e) => (e.ev === 'session' ? e.state : `leader=${String(e.value)}`));
        assert.deepEqual(states.slice(0, 2), ['suspended', 'leader=false'], `A's events after the cut: ${states.join(' ')}`);
        // Healed: A's session has expired meanwhile; it joins again with a new session, at the back.
        const healedAt = Date.now();
        proxy.refuse(false);
        await a.waitFor('session', { where: (e) => e.state === 'connected' && e.t > healedAt && e.sessionId !== a.firstSessionId });
        const others = [b, d].filter((p) => p !== next).map((p) => p.name);
        await expectQueue(next, [next.name, ...others, 'A']);
        assert.equal(trueAfter(a, cutAt), undefined, 'A never leads again while the others are queued before it');
        assertNoOverlap([a, b, d].flatMap((p) => intervals(p, Date.now())));
    });
    it('with policy deadline a cut-off leader keeps leading while suspended and reports false at `lost`, still before anyone else leads', async () => {
        const c = newCluster();
        const [host, port] = sharedConnect().split(',')[0].split(':');
        proxy = await TcpProxy.start(host, Number(port));
        const a = await c.start('A', { connect: proxy.connectString, suspendPolicy: 'deadline' });
        await a.waitFor('leader', { where: (e) => e.value === true });
        const b = await c.start('B', { suspendPolicy: 'deadline' });
        await expectQueue(b, ['A', 'B']);
        const cutAt = Date.now();
        proxy.refuse(true);
        proxy.reset();
        await c.leader([b], 15_000);
        const bTrue = trueAfter(b, cutAt);
        const aFalse = falseAfter(a, cutAt);
        assert.ok(aFalse && aFalse.t < bTrue.t, `A reported false before B reported true (A: ${a.describe()})`);
        const states = a.events.filter((e) => e.t > cutAt && (e.ev === 'session' || e.ev === 'leader')).map((e) => (e.ev === 'session' ? e.state : `leader=${String(e.value)}`));
        assert.deepEqual(states.slice(0, 3), ['suspended', 'lost', 'leader=false'], `A's events after the cut: ${states.join(' ')}`);
        proxy.refuse(false);
        assertNoOverlap([a, b].flatMap((p) => intervals(p, Date.now())));
    });
    it('a leader frozen (SIGSTOP) past its session timeout reports false when it runs again, and never acts as leader alongside the new one', async () => {
        const c = newCluster();
        const a = await c.start('A');
        await a.waitFor('leader', { where: (e) => e.value === true });
        await a.waitFor('work');
        const [b, d] = await Promise.all([c.start('B'), c.start('C')]);
        assert.equal((await queueOf(b, 3))[0], 'A');
        const stoppedAt = Date.now();
        a.signal('SIGSTOP');
        let continuedAt = 0;
        try {
            await c.leader([b, d], 15_000); // only after the server expired A's session
        }
        finally {
            continuedAt = Date.now();
            a.signal('SIGCONT');
        }
        const aFalse = await a.waitFor('leader', { where: (e) => e.value === false && e.t > continuedAt });
        // The first thing A does after running again: no heartbeat as leader before its false.
        const workAfterContinue = a.all('work', (e) => e.t > continuedAt);
        assert.ok(workAfterContinue.every((e) => e.t > aFalse.t), 'no leader work between SIGCONT and reporting false');
        assert.equal(workAfterContinue.length, 0, 'A never acts as leader again');
        // It then finds its session expired and queues up again at the back.
        await a.waitFor('session', { where: (e) => e.state === 'expired' && e.t > continuedAt });
        const next = [b, d].find((p) => p.isLeader);
        await expectQueue(next, [next.name, ...[b, d].filter((p) => p !== next).map((p) => p.name), 'A']);
        assert.equal(trueAfter(a, stoppedAt), undefined);
        assertNoOverlap([a, b, d].flatMap((p) => intervals(p, Date.now(), true)));
    });
});
//# sourceMappingURL=exclusive-leadership.test.js.map