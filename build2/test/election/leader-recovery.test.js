/**
 * Recovery before leadership, and leader work as guarded sections on the election's ready znode
 * (in one process, each participant with its own session on the shared server).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LeadershipLostError } from '../../src/errors/leadership-lost.error.js';
import { FaultySession } from '../support/faulty-session.js';
import { sleep, waitFor, withTimeout } from '../support/wait.js';
import { currentSeq, expireSession, kitPerTest, Recorder } from './election-kit.js';
const newKit = kitPerTest();
/** A recovery handler that records each call, whether its election reported leadership meanwhile, and can fail. */
function recordingHandler(election, failures = 0) {
    const calls = [];
    election.onRecovery((interrupted, successor) => {
        calls.push({ interrupted, successor, leading: election.isLeader, seq: currentSeq() });
        if (calls.length <= failures)
            throw new Error(`repair failed (${calls.length})`);
    });
    return calls;
}
async function readyRecord(k) {
    const admin = await k.session();
    return JSON.parse((await admin.getData(`${k.root}/elections/e/ready`)).data.toString('utf8'));
}
/** A leads, B queues behind it and records the recoveries it runs. */
async function leaderAThenB() {
    const k = newKit();
    const a = k.election(await k.session(), 'A');
    const b = k.election(await k.session(), 'B');
    const calls = recordingHandler(b);
    a.join();
    await new Recorder(a.isLeader$).next(true);
    b.join();
    await waitFor(async () => (await a.participants()).length === 2, { timeoutMs: 5000 });
    return { k, a, b, calls };
}
describe('leader recovery and guarded sections', () => {
    it('recovers an interrupted predecessor before reporting leadership, exactly once; a failing handler is retried with back-off meanwhile', async () => {
        const k = newKit();
        const a = k.election(await k.session(), 'A');
        const b = k.election(await k.session(), 'B');
        const [ra, rb] = [new Recorder(a.isLeader$), new Recorder(b.isLeader$)];
        a.join();
        await ra.next(true);
        b.join();
        await waitFor(async () => (await a.participants()).length === 2, { timeoutMs: 5000 });
        const aToken = a.token;
        await assert.rejects(a.runAsLeader(async (section) => {
            await section.checkpoint({ done: 3 });
            throw new Error('crashed half-way');
        }), /crashed half-way/);
        assert.equal((await readyRecord(k)).state, 'dirty');
        const bCalls = recordingHandler(b, 2);
        const aCalls = recordingHandler(a);
        const resigned = currentSeq();
        await a.resign();
        const bTrue = await rb.next(true, resigned, 10_000);
        assert.equal(bCalls.length, 3, 'two failures, then success');
        assert.ok(bCalls.every((call) => !call.leading && call.seq < bTrue.seq), 'never reported leadership before recovery succeeded');
        assert.deepEqual(bCalls[2].interrupted, { holder: 'A', token: aToken, since: bCalls[0].interrupted.since, checkpoint: { done: 3 } });
        assert.deepEqual(await readyRecord(k).then((r) => [r.state, r.token, r.holder]), ['ready', String(b.token), 'B'], 'repair recorded');
        // The next leader finds it repaired.
        a.join();
        await waitFor(async () => (await b.participants()).length === 2, { timeoutMs: 5000 });
        const handedBack = currentSeq();
        await b.resign();
        await ra.next(true, handedBack);
        assert.equal(aCalls.length, 0);
        assert.equal(bCalls.length, 3);
    });
    it("repairs a section that threw before the same leader's next section; sections run one at a time under the leader token", async () => {
        const k = newKit();
        const a = k.election(await k.session(), 'A');
        const b = k.election(await k.session(), 'B');
        const calls = recordingHandler(a);
        a.join();
        await new Recorder(a.isLeader$).next(true);
        b.join();
        let ranOnFollower = false;
        assert.equal(await b.runAsLeader(() => (ranOnFollower = true)), undefined);
        assert.equal(ranOnFollower, false, 'a follower does not run leader work');
        await assert.rejects(a.runAsLeader(() => Promise.reject(new Error('boom'))), /boom/);
        const trace = [];
        const section = async (name) => {
            trace.push(`${name}+`);
            await sleep(30);
            trace.push(`${name}-`);
            return name;
        };
        const results = await Promise.all([a.runAsLeader(() => section('s1')), a.runAsLeader((s) => (assert.equal(s.token, a.token), section('s2')))]);
        assert.deepEqual(results, ['s1', 's2']);
        assert.deepEqual(trace, ['s1+', 's1-', 's2+', 's2-'], 'one at a time');
        assert.equal(calls.length, 1, 'the failed section was repaired once, before s1');
        assert.equal(calls[0].interrupted.holder, 'A');
        assert.equal(calls[0].interrupted.token, a.token);
        assert.equal((await readyRecord(k)).state, 'ready');
    });
    it('resigning lets a running section finish within the drain: it completes, and the next leader recovers nothing', async () => {
        const { a, b, calls, k } = await leaderAThenB();
        let finish;
        let running = false;
        const work = a.runAsLeader(async (section) => {
            await section.checkpoint('started');
            running = true;
            await new Promise((resolve) => (finish = resolve));
            return section.signal.aborted ? 'told to stop' : 'finished';
        });
        await waitFor(() => running, { timeoutMs: 5000, message: 'section running' });
        const ra = new Recorder(a.isLeader$);
        const resigned = a.resign();
        await ra.next(false); // reported at once, before the section ends
        assert.equal(a.isLeader, false);
        assert.equal(await a.runAsLeader(() => 'new work'), undefined, 'no new section starts while resigning');
        assert.equal(b.isLeader, false, 'nobody else leads while our section finishes');
        finish();
        assert.equal(await withTimeout(work, 5000, 'section did not end'), 'finished');
        await withTimeout(resigned, 5000, 'resign() did not finish');
        await new Recorder(b.isLeader$).next(true);
        assert.equal(calls.length, 0, 'a section that finished in time needs no repair');
        assert.equal((await readyRecord(k)).state, 'ready');
    });
    it('resigning aborts a section that outlives the drain; it ends with LeadershipLostError and the next leader recovers it', async () => {
        const { a, b, calls, k } = await leaderAThenB();
        let sawAbort;
        let waiting = false;
        const work = a.runAsLeader(async (section) => {
            await section.checkpoint('started');
            const aborted = new Promise((resolve) => section.signal.addEventListener('abort', resolve, { once: true }));
            waiting = true;
            await aborted;
            sawAbort = section.signal.reason;
            return 'finished anyway';
        });
        await waitFor(() => waiting, { timeoutMs: 5000, message: 'section running' });
        assert.equal((await readyRecord(k)).state, 'dirty');
        const resigned = a.resign();
        await assert.rejects(withTimeout(work, 5000, 'section did not end'), LeadershipLostError);
        assert.ok(sawAbort instanceof LeadershipLostError);
        await withTimeout(resigned, 5000, 'resign() did not finish');
        await new Recorder(b.isLeader$).next(true);
        assert.equal(calls.length, 1);
        assert.equal(calls[0].interrupted.checkpoint, 'started');
        assert.equal(calls[0].successor.token, b.token, 'the handler learns the new leader\'s token, to fence its repair');
        assert.ok(calls[0].successor.token > calls[0].interrupted.token);
    });
    it('resigning during a recovery hands over only after the handler returns: two repairs never run side by side', async () => {
        const k = newKit();
        const [a, b, c] = [k.election(await k.session(), 'A'), k.election(await k.session(), 'B'), k.election(await k.session(), 'C')];
        const ra = new Recorder(a.isLeader$);
        a.join();
        await ra.next(true);
        await assert.rejects(a.runAsLeader(() => Promise.reject(new Error('crashed half-way'))), /crashed half-way/);
        b.join(); // B queues before C: wait for its node first
        await waitFor(async () => (await a.participants()).length === 2, { timeoutMs: 5000 });
        c.join();
        await waitFor(async () => (await a.participants()).length === 3, { timeoutMs: 5000 });
        // B's repair blocks until released; C records when its own repair starts.
        const events = [];
        let releaseB;
        const bRepairing = new Promise((resolve) => b.onRecovery(() => {
            events.push('B repair start');
            resolve();
            return new Promise((done) => (releaseB = () => { events.push('B repair end'); done(); }));
        }));
        c.onRecovery(() => void events.push('C repair'));
        await a.resign();
        await withTimeout(bRepairing, 5000, "B's repair did not start");
        const resigning = b.resign(); // mid-repair: must not hand over yet
        await sleep(300);
        assert.deepEqual(events, ['B repair start'], 'C started nothing while B repaired');
        releaseB();
        await resigning;
        const rc = new Recorder(c.isLeader$);
        await rc.next(true);
        // B's repair finished, so the state is clean: C had nothing to repair (or, if B's write of
        // `ready` did not land, repairs after B's handler returned; never alongside it).
        assert.equal(events[0], 'B repair start');
        assert.equal(events[1], 'B repair end');
        assert.ok(events.length <= 3);
    });
    it('fences a leader that did not know it was replaced: its next versioned write fails with LeadershipLostError', async () => {
        const k = newKit();
        const aSession = await k.session();
        const faulty = new FaultySession(aSession);
        const a = k.election(faulty, 'A');
        const b = k.election(await k.session(), 'B');
        const calls = recordingHandler(b);
        a.join();
        await new Recorder(a.isLeader$).next(true);
        b.join();
        await waitFor(async () => (await a.participants()).length === 2, { timeoutMs: 5000 });
        const rb = new Recorder(b.isLeader$);
        let release;
        const held = new Promise((resolve) => (release = resolve));
        let holding = false;
        const work = a.runAsLeader(async (section) => {
            await section.checkpoint(1);
            // The next checkpoint is held back until B has taken over: A was paused, as it were.
            faulty.before('setData', () => ((holding = true), held), 1);
            await section.checkpoint(2);
        });
        await waitFor(() => holding, { timeoutMs: 5000, message: 'second checkpoint held' });
        const oldSession = aSession.sessionId;
        await expireSession(k.connect, aSession);
        await rb.next(true);
        // Sent on A's next session: nothing ties the write to the old one but the version it names.
        await waitFor(() => aSession.state === 'connected' && aSession.sessionId !== oldSession, { timeoutMs: 5000 });
        release();
        await assert.rejects(withTimeout(work, 5000, 'section did not end'), LeadershipLostError);
        assert.equal(calls.length, 1);
        assert.equal(calls[0].interrupted.checkpoint, 1, 'B recovered from the last checkpoint A managed to write');
        assert.equal((await readyRecord(k)).holder, 'B');
    });
});
//# sourceMappingURL=leader-recovery.test.js.map