/**
 * The scheduler's promise to a paused process: what came due while it took no steps runs when the
 * pause ends, in the order it came due. A watch event and a reply from the same connection must
 * not swap places, however the pause was extended (one blocked event loop found by the runner,
 * seed 435676 from 400000, saw a node deletion before the data change sent ahead of it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
describe('SimScheduler pauses', () => {
    it('runs what came due during a pause in the order it came due', async () => {
        const scheduler = new SimScheduler(1);
        const ran = [];
        scheduler.schedule(0, () => scheduler.pause('p', 100), 'block', 'sim');
        scheduler.schedule(10, () => ran.push('first'), 'reply', 'p');
        scheduler.schedule(20, () => ran.push('second'), 'reply', 'p');
        await scheduler.run();
        assert.deepEqual(ran, ['first', 'second']);
        assert.equal(scheduler.now, 100);
    });
    it('keeps that order when the pause is extended after an event was deferred', async () => {
        const scheduler = new SimScheduler(1);
        const ran = [];
        scheduler.schedule(0, () => scheduler.pause('p', 100), 'block', 'sim');
        // Deferred to t=100 when it comes due at 10 ...
        scheduler.schedule(10, () => ran.push('changed'), 'notification', 'p');
        // ... then the pause grows to t=150, and a later event is deferred straight to 150.
        scheduler.schedule(20, () => scheduler.pause('p', 130), 'block', 'sim');
        scheduler.schedule(30, () => ran.push('deleted'), 'notification', 'p');
        await scheduler.run();
        assert.deepEqual(ran, ['changed', 'deleted']);
        assert.equal(scheduler.now, 150);
    });
    it('runs a deferred event before one scheduled for the moment the pause ends', async () => {
        const scheduler = new SimScheduler(1);
        const ran = [];
        scheduler.schedule(100, () => ran.push('due at the end'), 'timer', 'p');
        scheduler.schedule(0, () => scheduler.pause('p', 100), 'block', 'sim');
        scheduler.schedule(10, () => ran.push('due during the pause'), 'reply', 'p');
        await scheduler.run();
        assert.deepEqual(ran, ['due during the pause', 'due at the end']);
    });
});
//# sourceMappingURL=sim-scheduler.test.js.map