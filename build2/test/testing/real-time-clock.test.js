/**
 * `RealTimeClock`: the `SimClock` the testing module's simulated server runs on, on the process's
 * own timers. Events run in order, each as its actor's step, the process's microtasks between two;
 * `advance` runs what is due early and in order; background events never keep the process alive.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { RealTimeClock } from '../../src/zookeeper/simulated/real-time-clock.js';
const clockModule = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/zookeeper/simulated/real-time-clock.js')).href;
describe('RealTimeClock', () => {
    it('runs zero delays on the next turn in order, as their actor, with microtasks drained between two', async () => {
        const clock = new RealTimeClock({ actor: 'process' });
        const seen = [];
        clock.schedule(0, () => {
            seen.push(`a as ${clock.actor}`);
            queueMicrotask(() => seen.push('a microtask'));
        }, 'a', 'server');
        clock.schedule(0, () => seen.push(`b as ${clock.actor}`), 'b');
        const cancelled = clock.schedule(0, () => seen.push('c'), 'c');
        clock.cancel(cancelled);
        assert.deepEqual(seen, [], 'nothing runs synchronously');
        assert.equal(clock.as('operator', () => clock.actor), 'operator');
        assert.equal(clock.actor, 'process');
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(seen, ['a as server', 'a microtask', 'b as process']);
        clock.stop();
    });
    it('advance runs what falls due in (time, order) order, each at its time, and re-arms the rest', async () => {
        const clock = new RealTimeClock({ actor: 'process' });
        const seen = [];
        const at = (label) => () => seen.push(`${label}@${Math.round(clock.now / 1000)}`);
        clock.schedule(60_000, at('late'));
        clock.schedule(20_000, () => {
            at('b')();
            clock.schedule(5_000, at('b+5'));
        });
        clock.schedule(10_000, at('a'));
        clock.schedule(10_000, at('a2'));
        await clock.advance(30_000);
        assert.deepEqual(seen, ['a@10', 'a2@10', 'b@20', 'b+5@25']);
        assert.ok(clock.now >= 30_000 && clock.now < 31_000, `now ${clock.now}`);
        clock.schedule(0, at('now'));
        await clock.advance(30_000);
        assert.deepEqual(seen.slice(4), ['now@30', 'late@60']);
        clock.stop();
    });
    it('lets the process exit while only background events are pending, and keeps it alive for the others', () => {
        const script = (background) => `
      const { RealTimeClock } = await import(${JSON.stringify(clockModule)});
      const clock = new RealTimeClock({ actor: 'p', background: ['tick'] });
      const tick = () => clock.schedule(50, tick, 'tick');
      tick();
      clock.schedule(300, () => console.log('ran'), ${JSON.stringify(background)});
    `;
        const run = (background) => spawnSync(process.execPath, ['--input-type=module', '-e', script(background)], { encoding: 'utf8', timeout: 10_000 });
        const idle = run('tick');
        assert.equal(idle.status, 0, idle.stderr);
        assert.equal(idle.stdout, '', 'exited before the background event');
        const busy = run('work');
        assert.equal(busy.status, 0, busy.stderr);
        assert.equal(busy.stdout, 'ran\n', 'a pending event keeps the process alive until it ran');
    });
});
//# sourceMappingURL=real-time-clock.test.js.map