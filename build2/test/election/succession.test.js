/**
 * The election's succession (`Succession`): the participant right behind the leader stands by,
 * with watches on its own node and the ready record, and leads the moment the leader's node goes,
 * with no request; and the cases where it must look at the queue again instead (its own node
 * deleted, a disconnection meanwhile, failed looks). On the shared server; requests counted with
 * FaultySession, never mocked.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { connectionLoss, FaultySession } from '../support/faulty-session.js';
import { waitFor } from '../support/wait.js';
import { currentSeq, kitPerTest, leaderAAndObservedB, queuedInOrder, Recorder, standingBy } from './election-kit.js';
const newKit = kitPerTest();
describe('LeaderElection succession', () => {
    it('the successor right behind the leader takes over with no request before it: no listing, and the ready record it kept under a watch', async () => {
        const { k, a, b, observed, bSession } = await leaderAAndObservedB(newKit());
        await a.runAsLeader(() => undefined); // a ready znode exists, as in any election with leader work
        b.join();
        await standingBy(bSession);
        // While B stands by, each write of A's to the existing record costs B one read (a getData
        // that sets the next watch), never an exists; two writes close together may share one.
        const watching = observed.sent.length;
        for (let i = 0; i < 3; i++)
            await a.runAsLeader(() => undefined);
        // A reply on B's session comes after the notifications of every write before it: the last
        // re-read has been sent by then, and is answered once B holds its 3 watches again.
        await bSession.sync(`${k.root}/elections/e/ready`);
        await standingBy(bSession);
        const readyOps = observed.sent.slice(watching).filter((r) => r.path === `${k.root}/elections/e/ready`);
        assert.equal(readyOps.filter((r) => r.op !== 'getData').length, 0, readyOps.map((r) => r.op).join(' '));
        assert.ok(readyOps.length >= 1 && readyOps.length <= 6, `${readyOps.length} reads for 6 writes`);
        const resigned = observed.sent.length;
        const rb = new Recorder(b.isLeader$);
        await a.resign();
        await rb.next(true);
        const ops = observed.sent.slice(resigned).map((r) => `${r.op} ${r.path.slice(k.root.length)}`);
        // Only the write of our token into the ready record (the fence against the previous leader's
        // late section writes). Nothing read, nothing listed, no watch set: the own-node watch B set
        // while queuing goes on serving the new term.
        assert.deepEqual(ops, ['setData /elections/e/ready']);
    });
    it("the standby's ready record follows the leader's writes: the first section ever, failed just before the leader resigned, is repaired by the successor", async () => {
        const k = newKit();
        const a = k.election(await k.session(), 'A');
        const bSession = await k.session();
        const b = k.election(bSession, 'B');
        const repaired = [];
        b.onRecovery((interrupted) => void repaired.push({ holder: interrupted.holder, token: interrupted.token }));
        a.join();
        await new Recorder(a.isLeader$).next(true);
        const aToken = a.token;
        b.join();
        // B stands by, its read answered: no ready record yet. Had B kept that answer, it would see nothing to repair: a versioned write cannot tell it.
        await standingBy(bSession);
        await assert.rejects(a.runAsLeader(() => Promise.reject(new Error('half-way'))), /half-way/); // created dirty under A's token
        const rb = new Recorder(b.isLeader$);
        await a.resign();
        await rb.next(true);
        assert.deepEqual(repaired, [{ holder: 'A', token: aToken }], 'B repaired what A left dirty, once');
        assert.ok(b.token > aToken);
    });
    it('a standby whose own node is deleted (by hand) does not lead when the leader leaves; it queues again at the back', async () => {
        const k = newKit();
        const [a, b, c] = await queuedInOrder(k, 'A', 'B', 'C');
        const rb = new Recorder(b.isLeader$);
        const rc = new Recorder(c.isLeader$);
        const [, bNode] = await k.queueNodes();
        await (await k.session()).delete(bNode);
        // B queues again behind C (its node's watch told it); C now stands by behind A.
        await waitFor(async () => (await a.participants()).join() === 'A,C,B', { timeoutMs: 5000 });
        await a.resign();
        await rc.next(true);
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.deepEqual(rb.values.map((r) => r.value), [false], 'B never led');
        assert.equal(c.isLeader, true);
    });
    it("a leader whose node is deleted (by hand) stops leading at once and queues again: the watch its queue set on that node tells it", async () => {
        const k = newKit();
        // A leads from its first look, B by a standby grant: each term relies on the queue's own-node watch.
        const [a, b] = await queuedInOrder(k, 'A', 'B');
        const ra = new Recorder(a.isLeader$);
        const rb = new Recorder(b.isLeader$);
        const admin = await k.session();
        await admin.delete((await k.queueNodes())[0]);
        await rb.next(true);
        await ra.next(false);
        await waitFor(async () => (await b.participants()).join() === 'B,A', { timeoutMs: 5000, message: 'A queues again behind B' });
        assert.equal(a.isLeader, false);
        await admin.delete((await k.queueNodes())[0]);
        await rb.next(false);
        await ra.next(true);
        await waitFor(async () => (await a.participants()).join() === 'A,B', { timeoutMs: 5000, message: 'B queues again behind A' });
    });
    it('a standby disconnected while the leader left lists the queue before it leads (watches fired on reconnection come in no order)', async () => {
        const k = newKit();
        const p = await k.proxy();
        const a = k.election(await k.session(), 'A');
        const bSession = await k.session(p.connectString, 4000);
        const observed = new FaultySession(bSession);
        const b = k.election(observed, 'B');
        const states = new Recorder(bSession.state$);
        a.join();
        await new Recorder(a.isLeader$).next(true);
        b.join();
        await standingBy(bSession);
        let sentWhenLeading = -1;
        b.isLeader$.subscribe((leading) => void (leading && sentWhenLeading < 0 && (sentWhenLeading = observed.sent.length)));
        const cutAt = currentSeq();
        p.cut();
        await waitFor(() => states.values.find((r) => r.seq > cutAt && r.value.state === 'suspended'), { timeoutMs: 6000 });
        await a.resign(); // A's node goes while B cannot hear of it
        const restoredAt = observed.sent.length;
        p.restore();
        await waitFor(() => sentWhenLeading >= 0, { timeoutMs: 6000, message: 'B leads' });
        const ops = observed.sent.slice(restoredAt, sentWhenLeading).map((r) => `${r.op} ${r.path.slice(k.root.length)}`);
        assert.ok(ops.includes('getChildren /elections/e'), `B listed the queue before leading (${ops.join(', ')})`);
        assert.deepEqual(states.values.filter((r) => r.seq > cutAt).map((r) => r.value.state).slice(-1), ['reconnected'], 'the same session');
    });
    it('a standby that looks at the queue again keeps its one watch on the ready record: watches do not pile up', async () => {
        const k = newKit();
        // The head is a plain session's node, not a LeaderElection: a write to a leader's node is a
        // step-down request (see release-request.ts), which a LeaderElection would act on.
        const admin = await k.session();
        const dir = `${k.root}/elections/e`;
        for (const path of [k.root, `${k.root}/elections`, dir])
            await admin.create(path, null, 'persistent');
        const aNode = await admin.create(`${dir}/_c_${randomUUID()}-n-`, Buffer.from('A'), 'ephemeral_sequential');
        const bSession = await k.session();
        const observed = new FaultySession(bSession);
        const b = k.election(observed, 'B');
        b.join();
        await standingBy(bSession);
        for (let i = 1; i <= 5; i++) {
            const listed = observed.count('getChildren');
            await admin.setData(aNode, Buffer.from(`A${i}`), -1); // fires B's watch on A's node: B looks again
            await waitFor(() => observed.count('getChildren') > listed && bSession.watcherCount === 3, { timeoutMs: 5000, message: `look ${i}` });
        }
        assert.equal(bSession.watcherCount, 3, "B's own node, the ready record, A's node");
        assert.equal(observed.count('exists'), 2, 'one exists for its own node, one for the ready record, ever');
        assert.equal(b.isLeader, false);
    });
    it('a look whose listing and own-node read both fail leaves no unhandled rejection, and the next look stands by', async () => {
        const { k, b, observed } = await leaderAAndObservedB(newKit());
        const unhandled = [];
        const onUnhandled = (reason) => void unhandled.push(reason);
        process.on('unhandledRejection', onUnhandled);
        try {
            observed.after('getChildren', (request) => ({ ok: false, error: connectionLoss('getChildren', request.path) }), 1);
            observed.after('exists', (request) => ({ ok: false, error: connectionLoss('exists', request.path) }), 1);
            b.join();
            const [aNode] = await k.queueNodes();
            await waitFor(() => observed.sent.some((r) => r.op === 'getData' && r.path === aNode), { timeoutMs: 5000, message: "B watches A's node" });
            await new Promise((resolve) => setTimeout(resolve, 50)); // an unhandled rejection is reported after the microtasks
            assert.deepEqual(unhandled, []);
        }
        finally {
            process.off('unhandledRejection', onUnhandled);
        }
    });
});
//# sourceMappingURL=succession.test.js.map