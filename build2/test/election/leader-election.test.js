/**
 * The election recipe in one process (each participant with its own ZooKeeper session, on the
 * shared server): isLeader$ semantics, resign/join, named elections, tokens, leader$. Requests
 * are counted with FaultySession (a wrapper over a real session), never mocked.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ElectionClosedError } from '../../src/errors/election-closed.error.js';
import { waitFor } from '../support/wait.js';
import { currentSeq, kitPerTest, leaderAAndObservedB, queuedInOrder, Recorder } from './election-kit.js';
const newKit = kitPerTest();
describe('LeaderElection', () => {
    it('isLeader$ replays the current value, emits only on change, and completes on close', async () => {
        const k = newKit();
        const a = k.election(await k.session(), 'A');
        const early = new Recorder(a.isLeader$);
        assert.deepEqual(early.values.map((r) => r.value), [false], 'replays false before joining');
        a.join();
        a.join(); // no-op while participating
        await early.next(true);
        const late = new Recorder(a.isLeader$);
        assert.deepEqual(late.values.map((r) => r.value), [true], 'a late subscriber gets the current value at once');
        assert.equal(a.isLeader, true);
        await a.resign();
        assert.equal(a.isLeader, false);
        a.join();
        await early.next(true, early.values.at(-1).seq);
        await a.close();
        assert.deepEqual(early.values.map((r) => r.value), [false, true, false, true, false]);
        assert.equal(early.completed, true, 'completes on close');
        assert.equal(late.completed, true);
        assert.throws(() => a.join(), ElectionClosedError);
    });
    it('resign() hands over to the next in line at once; join() queues up again at the back', async () => {
        const k = newKit();
        const a = k.election(await k.session(), 'A');
        const b = k.election(await k.session(), 'B');
        const c = k.election(await k.session(), 'C');
        const [ra, rb] = [new Recorder(a.isLeader$), new Recorder(b.isLeader$)];
        a.join();
        await ra.next(true);
        b.join();
        await waitFor(async () => (await a.participants()).length === 2, { timeoutMs: 5000 });
        c.join();
        await waitFor(async () => (await a.participants()).length === 3, { timeoutMs: 5000 });
        assert.deepEqual(await c.participants(), ['A', 'B', 'C']);
        const resigned = currentSeq();
        await a.resign();
        const bTrue = await rb.next(true, resigned);
        const aFalse = ra.values.find((r) => r.seq > resigned && r.value === false);
        assert.ok(aFalse.seq < bTrue.seq, 'A reported false before B reported true');
        assert.deepEqual(await c.participants(), ['B', 'C']);
        a.join();
        await waitFor(async () => JSON.stringify(await c.participants()) === JSON.stringify(['B', 'C', 'A']), { timeoutMs: 5000, message: 'A at the back' });
        assert.equal(a.isLeader, false);
    });
    it('keeps several named elections per process apart', async () => {
        const k = newKit();
        const [s1, s2] = [await k.session(), await k.session()];
        const reports1 = k.election(s1, 'P1', { name: 'reports' });
        const billing1 = k.election(s1, 'P1', { name: 'billing' });
        const reports2 = k.election(s2, 'P2', { name: 'reports' });
        const billing2 = k.election(s2, 'P2', { name: 'billing' });
        reports1.join();
        await new Recorder(reports1.isLeader$).next(true);
        billing2.join();
        await new Recorder(billing2.isLeader$).next(true);
        reports2.join();
        billing1.join();
        await waitFor(async () => (await reports1.participants()).length === 2 && (await billing1.participants()).length === 2, { timeoutMs: 5000 });
        assert.deepEqual([reports1.isLeader, billing1.isLeader, reports2.isLeader, billing2.isLeader], [true, false, false, true]);
        assert.notEqual(reports1.path, billing1.path);
        await reports1.resign();
        await new Recorder(reports2.isLeader$).next(true);
        assert.equal(billing2.isLeader, true, 'the other election is not affected');
        assert.equal(billing1.isLeader, false);
    });
    it("the leader's token is the czxid of its queue node, and a successor's is larger", async () => {
        const k = newKit();
        const [a, b] = await queuedInOrder(k, 'A', 'B');
        const admin = await k.session();
        const [aNode, bNode] = await k.queueNodes();
        assert.equal(a.token, (await admin.exists(aNode)).czxid);
        await a.resign();
        await new Recorder(b.isLeader$).next(true);
        assert.equal(b.token, (await admin.exists(bNode)).czxid);
    });
    it('leader$ follows the head of the queue; a change of leader costs an observer 2 requests, a follower joining behind costs nothing', async () => {
        const { k, a, b, observed } = await leaderAAndObservedB(newKit());
        b.join();
        const leaders = new Recorder(b.leader$);
        await leaders.next('A');
        const c = k.election(await k.session(), 'C');
        await waitFor(async () => (await a.participants()).length === 2, { timeoutMs: 5000 });
        const before = observed.sent.length;
        c.join();
        await waitFor(async () => (await a.participants()).length === 3, { timeoutMs: 5000 });
        assert.equal(observed.sent.length, before, 'B sent nothing when C queued behind it');
        const resigned = observed.sent.length;
        await a.resign();
        await leaders.next('B');
        await waitFor(() => observed.count('getData', resigned) >= 1, { timeoutMs: 2000 });
        // B's own leadership path reads its node (and the queue does not list: B stood by right
        // behind A); count leader$'s share only.
        const listings = observed.sent.slice(resigned).filter((r) => r.op === 'getChildren');
        assert.equal(listings.length, 1, `one listing, by leader$ (${observed.sent.slice(resigned).map((r) => r.op).join(' ')})`);
        assert.deepEqual(leaders.values.map((r) => r.value), ['A', 'B']);
        await b.resign();
        await leaders.next('C');
    });
    it('leader$ of an observer that looked before anyone took part (no directory yet) names the first leader', async () => {
        const k = newKit();
        const observer = k.election(await k.session(), 'observer'); // never joins
        const leaders = new Recorder(observer.leader$);
        await leaders.next(null);
        const a = k.election(await k.session(), 'A');
        a.join();
        const first = await leaders.next('A', 0, 5000);
        await a.resign();
        await leaders.next(null, first.seq, 5000);
        // Empty again (the directory may stay or be swept as a container): still watched.
        a.join();
        await leaders.next('A', leaders.values.at(-1).seq, 5000);
        assert.deepEqual(leaders.values.map((r) => r.value), [null, 'A', null, 'A']);
    });
    it('leader$ of an observer that looked at an empty election names the first leader', async () => {
        const k = newKit();
        const admin = await k.session();
        for (const path of [k.root, `${k.root}/elections`, `${k.root}/elections/e`])
            await admin.create(path, null, 'persistent');
        const observer = k.election(await k.session(), 'observer'); // never joins
        const leaders = new Recorder(observer.leader$);
        await leaders.next(null);
        const a = k.election(await k.session(), 'A');
        a.join();
        await leaders.next('A', 0, 5000);
        assert.deepEqual(leaders.values.map((r) => r.value), [null, 'A']);
    });
});
//# sourceMappingURL=leader-election.test.js.map