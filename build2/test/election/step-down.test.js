/**
 * Asking a leader to step down (`requestStepDown`), on the shared server: a mark on the leader's
 * queue node, which its term watches anyway. The leader resigns as `resign()` does and joins again
 * at the back, so the next participant leads (across processes too); alone, it leads again under
 * a new token. The participant standing by behind a marked head is woken by the mark but leads
 * only once the head's node is gone; a mark that reached our node before the term watched it is
 * acted on at the grant; `LeaderService.requestStepDown` asks without joining.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, it } from 'node:test';
import { InvalidLockNameError } from '../../src/errors/invalid-lock-name.error.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { firedWatches, startLockApp } from '../lock/lock-test-kit.js';
import { watchedBy } from '../support/server-watches.js';
import { sleep, waitFor, withTimeout } from '../support/wait.js';
import { assertNoOverlap, Cluster, intervals, sharedConnect, testRoot } from './election-cluster.js';
import { kitPerTest, Recorder, standingBy } from './election-kit.js';
const newKit = kitPerTest();
/** A sink that keeps every leadership event. */
function eventLog() {
    const events = [];
    return { events, sink: { wants: () => true, emit: (_channel, event) => void events.push(event) } };
}
/** A head of election `e` that is no `LeaderElection`: a node of a plain session, which never reacts to a mark. */
async function rawHead(k) {
    const session = await k.session();
    const dir = `${k.root}/elections/e`;
    for (const path of [k.root, `${k.root}/elections`, dir])
        await session.create(path, null, 'persistent').catch(() => undefined);
    const path = await session.create(`${dir}/_c_${randomUUID()}-n-`, Buffer.from('raw-head'), 'ephemeral_sequential');
    return { path, close: () => session.close() };
}
describe('step-down: leadership moves on request', () => {
    it('alone, the leader steps down and leads again under a new token; the events say so', async () => {
        const k = newKit();
        const log = eventLog();
        const a = k.election(await k.session(), 'A', { events: log.sink });
        const leading = new Recorder(a.isLeader$);
        a.join();
        const first = await leading.next(true);
        const token = a.token;
        const [head] = await k.queueNodes();
        const asked = await a.requestStepDown();
        assert.ok(asked.requested, JSON.stringify(asked));
        assert.deepEqual({ node: asked.node, identity: asked.identity, repeated: asked.repeated }, { node: head, identity: 'A', repeated: false });
        const lost = await leading.next(false, first.seq);
        await leading.next(true, lost.seq);
        assert.ok(a.token > token, `new token ${a.token} after ${token}`);
        assert.ok(a.isParticipating);
        assert.notEqual((await k.queueNodes())[0], head, 'a new node, at the back (here: alone)');
        await waitFor(() => log.events.length >= 4, { message: `events: ${log.events.map((e) => e.type).join(' ')}` });
        assert.deepEqual(log.events.map((event) => [event.type, 'reason' in event ? event.reason : event.token]), [
            ['leadership.gained', token],
            ['leadership.step-down', token],
            ['leadership.lost', 'asked to step down'],
            ['leadership.gained', a.token],
        ]);
    });
    it('the participant standing by behind a marked head keeps standing by, and leads once, when the head goes', async () => {
        const k = newKit();
        const head = await rawHead(k);
        const sSession = await k.session();
        const s = k.election(sSession, 'S');
        const leading = new Recorder(s.isLeader$);
        s.join();
        await standingBy(sSession);
        const before = await firedWatches(k.connect);
        const asked = await s.requestStepDown();
        assert.ok(asked.requested && asked.node === head.path && asked.identity === 'raw-head', JSON.stringify(asked));
        // The mark fires the standby's watch on the head: it looks again and stands by again.
        await waitFor(async () => (await firedWatches(k.connect)) > before, { message: 'the mark notified the standby' });
        await waitFor(async () => (await watchedBy(k.connect, sSession.sessionId)).includes(head.path), { message: 'the standby watches the head again' });
        await standingBy(sSession);
        await sleep(300);
        assert.deepEqual(leading.values.map((r) => r.value), [false], 'no leadership while the marked head exists');
        head.close();
        await leading.next(true);
        await sleep(200);
        assert.deepEqual(leading.values.map((r) => r.value), [false, true], 'led once');
    });
    it('a mark that reached our node before the term watched it makes the new leader step down at the grant', async () => {
        const k = newKit();
        const head = await rawHead(k);
        const sSession = await k.session();
        const log = eventLog();
        const s = k.election(sSession, 'S', { events: log.sink });
        s.join();
        await standingBy(sSession);
        const [, mine] = await k.queueNodes();
        const { data, stat } = await sSession.getData(mine);
        // As a request that landed just as we got to the head: the standby reads it, then is granted
        // by its watch on our node (which does not fire again) when the head goes.
        const before = await firedWatches(k.connect);
        await sSession.setData(mine, data, -1);
        await waitFor(async () => (await firedWatches(k.connect)) > before, { message: 'the mark notified S' });
        await waitFor(async () => (await watchedBy(k.connect, sSession.sessionId)).includes(mine), { message: 'S watches its node again' });
        await sleep(100);
        head.close();
        const stepDown = await waitFor(() => log.events.find((event) => event.type === 'leadership.step-down'), { message: `events: ${log.events.map((e) => e.type).join(' ')}` });
        assert.equal(stepDown.token, stat.czxid, 'under the marked node\'s token');
        const gained = await waitFor(() => log.events.find((event) => event.type === 'leadership.gained'), { message: 'leads again (alone)' });
        assert.ok(gained.token > stat.czxid, 'never reported leadership under the marked node');
        assert.ok(!log.events.some((event) => event.type === 'leadership.lost'), 'nothing to lose: it never reported leadership before stepping down');
    });
    it('a mark made while the leader was disconnected is acted on once it is back', async () => {
        const k = newKit();
        const proxy = await k.proxy();
        const a = k.election(await k.session(proxy.connectString, 4000), 'A');
        const b = k.election(await k.session(), 'B');
        const aLeading = new Recorder(a.isLeader$);
        a.join();
        const aLed = await aLeading.next(true);
        b.join();
        await waitFor(async () => (await k.queueNodes()).length === 2, { message: 'B queued' });
        proxy.refuse(true);
        proxy.reset();
        await aLeading.next(false, aLed.seq);
        assert.equal((await b.requestStepDown()).requested, true);
        proxy.refuse(false);
        await new Recorder(b.isLeader$).next(true);
        await waitFor(async () => (await b.participants()).join() === 'B,A', { message: 'A queued again behind B' });
    });
    it('resign() while a step-down drains calls off the re-join', async () => {
        const k = newKit();
        const a = k.election(await k.session(), 'A');
        const leading = new Recorder(a.isLeader$);
        a.join();
        const led = await leading.next(true);
        let finish;
        const section = a.runAsLeader(() => new Promise((resolve) => (finish = resolve)));
        await a.requestStepDown();
        await leading.next(false, led.seq);
        assert.ok(a.isParticipating, 'stepping down, to join again');
        const resigned = a.resign();
        assert.equal(a.isParticipating, false);
        finish();
        await section;
        await withTimeout(resigned, 5000, 'resign');
        await sleep(200);
        assert.deepEqual(await k.queueNodes(), [], 'not queued again');
        assert.deepEqual(leading.values.map((r) => r.value), [false, true, false]);
    });
    it('LeaderService.requestStepDown asks the leader of an election without taking part in it', async () => {
        const k = newKit();
        const a = k.election(await k.session(), 'A');
        const leading = new Recorder(a.isLeader$);
        a.join();
        const led = await leading.next(true);
        const app = await startLockApp({ connect: k.connect, root: k.root, sessionTimeoutMs: 4000 }, []);
        try {
            const leader = app.get(LeaderService);
            assert.deepEqual(await leader.requestStepDown('nobody-here'), { requested: false, dir: `${k.root}/elections/nobody-here`, reason: 'free' });
            await assert.rejects(leader.requestStepDown('a/b'), InvalidLockNameError);
            const asked = await leader.requestStepDown('e');
            assert.ok(asked.requested && asked.identity === 'A', JSON.stringify(asked));
            const lost = await leading.next(false, led.seq);
            await leading.next(true, lost.seq); // alone: leads again
            assert.deepEqual(leader.electionNames(), [], 'asking joined no election');
        }
        finally {
            await app.close();
        }
    });
});
describe('step-down across processes', () => {
    let cluster;
    afterEach(async () => {
        await cluster?.dispose();
        cluster = undefined;
    });
    it('a replica asks the leader to step down: the leader resigns and queues again at the back, the next one leads', async () => {
        const c = (cluster = new Cluster({ connect: sharedConnect(), root: testRoot(), sessionTimeoutMs: 4000 }));
        const a = await c.start('A');
        await a.waitFor('leader', { where: (e) => e.value === true });
        const b = await c.start('B');
        const d = await c.start('C');
        d.send('participants');
        await d.waitFor('participants', { where: (e) => e.list.length === 3 });
        const from = d.events.length;
        d.send('step-down');
        const asked = await d.waitFor('asked', { from });
        assert.equal(asked.requested, true);
        assert.equal(asked.identity, 'A');
        const stepDown = await a.waitFor('step-down');
        assert.equal(stepDown.token, a.all('leader', (e) => e.value === true)[0].token);
        const leader = await c.leader([a, b, d]);
        assert.equal(leader, b, 'the next in line leads');
        const bTrue = b.all('leader', (e) => e.value === true)[0];
        const aTrue = a.all('leader', (e) => e.value === true)[0];
        const aFalse = a.all('leader', (e) => e.value === false && e.t >= aTrue.t)[0];
        assert.ok(aFalse.t <= bTrue.t, 'A stopped before B started');
        d.send('participants');
        await d.waitFor('participants', { from, where: (e) => e.list.join() === 'B,C,A' });
        for (const p of [a, b, d])
            assert.ok(!p.all('session').some((e) => e.state === 'lost' || e.state === 'expired'), `${p.name} kept its session`);
        assertNoOverlap([a, b, d].flatMap((p) => intervals(p, Date.now())));
    });
});
//# sourceMappingURL=step-down.test.js.map