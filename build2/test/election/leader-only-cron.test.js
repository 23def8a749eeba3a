/**
 * `@LeaderOnly` with `@Cron('* * * * * *')` (@nestjs/schedule) across three replicas, in both
 * decorator orders: every replica's scheduler fires every second, and each tick runs on one
 * replica only, the one leading at that moment, also across a change of leader.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { waitFor } from '../support/wait.js';
import { Cluster, intervals, sharedConnect, testRoot } from './election-cluster.js';
const METHODS = ['cronAbove', 'cronBelow'];
let cluster;
afterEach(async () => {
    await cluster?.dispose();
    cluster = undefined;
});
function ticks(participants, method) {
    return participants.flatMap((p) => p.all('tick', (e) => e.method === method).map((e) => ({ who: p.name, t: e.t })));
}
async function waitForTicks(participant, count, after) {
    for (const method of METHODS) {
        await participant.waitFor('tick', { where: (e) => e.method === method && e.t > after, timeoutMs: 10_000 });
    }
    await waitFor(() => METHODS.every((m) => participant.all('tick', (e) => e.method === m && e.t > after).length >= count), {
        timeoutMs: 10_000,
        message: `${count} ticks of each job on ${participant.name}`,
    });
}
describe('@LeaderOnly with @Cron across replicas', () => {
    it('runs each tick on one replica only (the leader), in both decorator orders', async () => {
        const c = (cluster = new Cluster({ connect: sharedConnect(), root: testRoot(), sessionTimeoutMs: 4000, cron: true }));
        const replicas = await Promise.all(['A', 'B', 'C'].map((name) => c.start(name)));
        const first = await c.leader();
        await waitForTicks(first, 3, 0);
        // Leadership moves: the ticks follow it, still one replica per tick.
        const resignAt = Date.now();
        first.send('resign');
        const second = await c.leader(replicas.filter((p) => p !== first));
        await waitForTicks(second, 3, resignAt);
        for (const replica of replicas)
            await replica.quit();
        const end = Date.now();
        const leadership = replicas.flatMap((p) => intervals(p, end));
        for (const method of METHODS) {
            const all = ticks(replicas, method);
            const seconds = all.map((tick) => Math.floor(tick.t / 1000));
            assert.equal(new Set(seconds).size, seconds.length, `${method}: a second ticked on two replicas: ${JSON.stringify(all)}`);
            for (const tick of all) {
                const leading = leadership.find((i) => i.who === tick.who && i.start <= tick.t && tick.t <= i.end);
                assert.ok(leading, `${method}: ${tick.who} ticked at ${tick.t} while not leading`);
            }
            const runners = new Set(all.map((tick) => tick.who));
            assert.deepEqual([...runners].sort(), [first.name, second.name].sort(), `${method} ran on the two leaders only`);
        }
        for (const replica of replicas)
            assert.equal(replica.all('error').length, 0, replica.log);
    });
});
//# sourceMappingURL=leader-only-cron.test.js.map