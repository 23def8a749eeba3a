/**
 * The simulated ensemble's leader links (issue 29): only the leader expires sessions, and it hears
 * of a follower's clients only through that follower's answers to its pings. A follower cut off
 * from the leader goes on answering its clients' pings and reads while the leader expires their
 * sessions; what goes through the leader (sync, writes) is not answered; after syncLimit ticks the
 * follower drops its clients. The C client binding is driven directly: no recipe involved.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ZOOKEEPER_ERROR_CODES as RC } from '../../src/errors/zookeeper.error.js';
import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';
const TIMEOUT = 2000;
const CONNECTED = 3;
/** A three-server ensemble (leader: server 3) and one client handle connected to a follower. */
async function clientOnFollower(syncLimitTicks) {
    const scheduler = new SimScheduler(29);
    const ensemble = new SimulatedEnsemble(scheduler, { serverIds: [1, 2, 3], syncLimitTicks });
    let handle;
    let closedWith;
    scheduler.schedule(0, () => {
        handle = new ensemble.binding({ connect: ensemble.connectString, timeout: TIMEOUT });
        handle.on('close', (_handle, code) => (closedWith = code));
        handle.init({});
    }, 'open', 'client');
    await scheduler.run({ untilMs: 500 });
    // Off the leader: the client moves on to its next host.
    for (let i = 0; ensemble.connectionsOf('client')[0]?.member.id === 3 && i < 3; i++) {
        ensemble.connectionsOf('client')[0].close('test: not the leader');
        await scheduler.run({ untilMs: scheduler.now + 500 });
    }
    const follower = ensemble.connectionsOf('client')[0].member;
    assert.notEqual(follower.id, 3, 'the client talks to a follower');
    const session = handle.client_id;
    /** Sends a request as the client's step; its return code once answered. */
    const ask = (send) => {
        const answer = {};
        scheduler.schedule(0, () => send((rc) => (answer.rc = rc)), 'request', 'client');
        return answer;
    };
    const runFor = (ms) => scheduler.run({ untilMs: scheduler.now + ms });
    return { scheduler, ensemble, follower, handle: () => handle, session, closedWith: () => closedWith, ask, runFor };
}
describe('simulated leader links', () => {
    it('keep a client of a follower alive through touch forwarding alone', async () => {
        const { ensemble, session, runFor } = await clientOnFollower(5);
        await runFor(10 * TIMEOUT);
        assert.ok(ensemble.liveSessions().includes(session), 'the leader heard of the pings through the follower');
    });
    it('a cut-off follower answers pings and reads while the leader expires the session; sync goes unanswered', async () => {
        const { ensemble, follower, handle, session, closedWith, ask, runFor } = await clientOnFollower(10);
        assert.equal(ensemble.cutFollower(follower.id), true);
        await runFor(TIMEOUT + 1000);
        assert.ok(!ensemble.liveSessions().includes(session), 'the leader expired the session one timeout after the last forwarded touch');
        assert.equal(handle().state, CONNECTED, 'the follower still answers the pings: the client sees nothing wrong');
        const read = ask((done) => handle().a_exists('/', false, (rc) => done(rc)));
        await runFor(100);
        assert.equal(read.rc, 0, 'a read is answered by the follower alone');
        const sync = ask((done) => handle().a_sync('/', (rc) => done(rc)));
        await runFor(TIMEOUT / 2);
        assert.equal(sync.rc, undefined, 'a sync goes through the leader: no answer while cut off');
        await runFor(10 * 500);
        assert.equal(sync.rc, RC.CONNECTIONLOSS, 'the connection went, and the sync with it');
        assert.equal(closedWith(), -112, 'reconnected elsewhere, the client learns that its session expired');
    });
    it('a follower cut off for less than the timeout loses nothing: held messages go through when it heals', async () => {
        const { ensemble, follower, handle, session, ask, runFor } = await clientOnFollower(10);
        assert.equal(ensemble.cutFollower(follower.id), true);
        const sync = ask((done) => handle().a_sync('/', (rc) => done(rc)));
        await runFor(TIMEOUT / 4);
        assert.equal(sync.rc, undefined);
        ensemble.reconnectFollower(follower.id);
        await runFor(100);
        assert.equal(sync.rc, 0, 'the held sync is answered once the link delivers again');
        await runFor(5 * TIMEOUT);
        assert.ok(ensemble.liveSessions().includes(session));
    });
    it('a follower drops its clients after syncLimit ticks without the leader, and serves nobody until it rejoins', async () => {
        const { ensemble, follower, handle, runFor } = await clientOnFollower(2);
        assert.equal(ensemble.cutFollower(follower.id), true);
        await runFor(2 * 500 + 600);
        assert.notEqual(ensemble.connectionsOf('client')[0]?.member, follower, 'the client moved to another server');
        assert.equal(handle().state, CONNECTED, 'and resumed its session there');
        assert.equal(ensemble.cutFollower(follower.id === 1 ? 2 : 1), false, 'cutting the other follower too would leave the leader without a quorum');
    });
});
//# sourceMappingURL=leader-link.test.js.map