/**
 * The ready znode's versioned writes around a lost reply: a checkpoint whose reply never came
 * back (CONNECTIONLOSS after the server applied it) must not make the holder believe it lost the
 * lock, while a write by a newer holder still must. Real ZooKeeper; the lost reply is injected by
 * a FaultySession after the server answered.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { ReadyState } from '../../src/recipes/ready/ready-state.js';
import { connectionLoss, FaultySession } from '../support/faulty-session.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
describe('ready state writes whose reply was lost', () => {
    let session;
    before(async () => {
        session = await openSession(sharedConnect());
    });
    after(() => session.close());
    async function dirtySection(faulty, token) {
        const dir = testRoot();
        await session.create(dir, null, 'persistent');
        const state = new ReadyState(faulty, dir);
        return { dir, state, section: await state.enter({ token, holder: 'me' }, undefined) };
    }
    /** The next setData is applied by the server, but its caller is told CONNECTIONLOSS. */
    function loseNextSetDataReply(faulty) {
        faulty.after('setData', (request, outcome) => {
            assert.equal(outcome.ok, true, 'the server applied the write');
            return { ok: false, error: connectionLoss('setData', request.path) };
        }, 1);
    }
    it('retries a checkpoint whose reply was lost on the same session; it resolves, and the section completes', async () => {
        const faulty = new FaultySession(session);
        const { state, section } = await dirtySection(faulty, 10n);
        loseNextSetDataReply(faulty);
        const before = faulty.sent.length;
        await section.checkpoint({ step: 1 });
        // The lost write, the retry (BADVERSION: the first one landed), a read, the write at the new version.
        assert.deepEqual(faulty.sent.slice(before).map((r) => r.op), ['setData', 'setData', 'getData', 'setData']);
        assert.deepEqual((await state.read()).record.checkpoint, { step: 1 });
        await section.checkpoint({ step: 2 });
        assert.deepEqual((await state.read()).record.checkpoint, { step: 2 });
        await section.complete();
        assert.equal((await state.read()).record.state, 'ready');
    });
    it('sends a checkpoint that never reached the server again, once; the record holds it', async () => {
        const faulty = new FaultySession(session);
        const { state, section } = await dirtySection(faulty, 16n);
        faulty.before('setData', (request) => {
            throw connectionLoss('setData', request.path); // lost on the way: the server never saw it
        }, 1);
        const before = faulty.sent.length;
        await section.checkpoint({ step: 7 });
        assert.deepEqual(faulty.sent.slice(before).map((r) => r.op), ['setData'], 'one write reached the server');
        assert.deepEqual((await state.read()).record.checkpoint, { step: 7 });
        assert.equal((await state.read()).version, 1);
    });
    it('enters through a lost reply of its dirty write: recovery runs once, the section is ours', async () => {
        const dir = testRoot();
        await session.create(dir, null, 'persistent');
        await new ReadyState(session, dir).enter({ token: 20n, holder: 'crashed' }, undefined); // never completes
        const faulty = new FaultySession(session);
        loseNextSetDataReply(faulty);
        let repairs = 0;
        const section = await new ReadyState(faulty, dir).enter({ token: 21n, holder: 'me' }, () => void repairs++);
        assert.equal(repairs, 1, 'the interrupted predecessor is repaired once, not again on the retry');
        assert.equal(section.recovered?.token, 20n);
        const { record } = (await new ReadyState(session, dir).read());
        assert.deepEqual([record.state, record.token], ['dirty', '21']);
        await section.complete();
    });
    it('completes when the reply of the completing write itself was lost (the caller never sees the loss)', async () => {
        const faulty = new FaultySession(session);
        const { state, section } = await dirtySection(faulty, 11n);
        loseNextSetDataReply(faulty);
        await section.complete();
        const { record } = (await state.read());
        assert.equal(record.state, 'ready');
        assert.equal(record.token, '11');
    });
    it('hands the recovery handler the interrupted holder and the new holder\'s token', async () => {
        const faulty = new FaultySession(session);
        const { dir, section } = await dirtySection(faulty, 14n);
        await section.checkpoint({ step: 3 });
        const seen = [];
        await new ReadyState(session, dir).enter({ token: 15n, holder: 'next' }, (interrupted, successor) => void seen.push(interrupted, successor));
        assert.equal(seen.length, 2);
        assert.deepEqual(seen[0].checkpoint, { step: 3 });
        assert.equal(seen[0].token, 14n);
        assert.deepEqual(seen[1], { token: 15n });
    });
    it('ends entering with LockLostError when the session holding the lock is gone (a closing handle after expiry)', async () => {
        const faulty = new FaultySession(session);
        const dir = testRoot();
        await session.create(dir, null, 'persistent');
        const state = new ReadyState(faulty, dir);
        faulty.after('getData', (request) => ({ ok: false, error: new ZooKeeperError(-116, 'getData', request.path) }), 1);
        await assert.rejects(state.enter({ token: 20n, holder: 'me' }, undefined), (error) => error instanceof LockLostError && /CLOSING/.test(error.message));
    });
    it('still reports LockLostError when a newer holder wrote in between', async () => {
        const faulty = new FaultySession(session);
        const { dir, section } = await dirtySection(faulty, 12n);
        loseNextSetDataReply(faulty);
        await section.checkpoint({ step: 1 });
        await new ReadyState(session, dir).enter({ token: 13n, holder: 'newer' }, () => undefined);
        await assert.rejects(section.checkpoint({ step: 2 }), LockLostError);
        await assert.rejects(section.complete(), LockLostError);
    });
    describe("a lock's completion (it deletes the record)", () => {
        async function deletingSection(faulty, token) {
            const dir = testRoot();
            await session.create(dir, null, 'persistent');
            const state = new ReadyState(faulty, dir, 'delete');
            return { dir, state, section: await state.enter({ token, holder: 'me' }, undefined) };
        }
        it('completes when the reply of its delete was lost: the retry finds the record gone', async () => {
            const faulty = new FaultySession(session);
            const { state, section } = await deletingSection(faulty, 30n);
            faulty.after('delete', (request, outcome) => {
                assert.equal(outcome.ok, true, 'the server applied the delete');
                return { ok: false, error: connectionLoss('delete', request.path) };
            }, 1);
            await section.complete();
            assert.equal(await state.read(), undefined);
            assert.equal(faulty.count('delete'), 2, 'sent again once');
        });
        it('completes after a checkpoint whose reply was lost (its delete names the version that checkpoint made)', async () => {
            const faulty = new FaultySession(session);
            const { state, section } = await deletingSection(faulty, 31n);
            loseNextSetDataReply(faulty);
            await section.checkpoint({ step: 1 });
            await section.complete();
            assert.equal(await state.read(), undefined);
        });
        it('deletes nothing a newer holder wrote: LockLostError, and the newer record stays', async () => {
            const faulty = new FaultySession(session);
            const { dir, state, section } = await deletingSection(faulty, 32n);
            await new ReadyState(session, dir).enter({ token: 33n, holder: 'newer' }, () => undefined);
            await assert.rejects(section.complete(), LockLostError);
            const { record } = (await state.read());
            assert.deepEqual([record.state, record.token], ['dirty', '33']);
        });
    });
});
//# sourceMappingURL=ready-state.test.js.map