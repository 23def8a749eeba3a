/**
 * The simulation runner's own guarantees, in `npm test` (CI explores far more with `npm run
 * test:sim`): a seed fully determines a run, trace and all; and a handful of schedules pass.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Logger } from '@nestjs/common';
import { FAULT_KINDS, planSchedule, runSchedule } from './schedule.js';

Logger.overrideLogger(false);

async function traceOf(seed: number): Promise<string[]> {
  const lines: string[] = [];
  await runSchedule(planSchedule(seed), (line) => lines.push(line));
  return lines;
}

describe('simulation runner', () => {
  it('replays a seed exactly: the same trace, line for line', async () => {
    const first = await traceOf(36);
    await runSchedule(planSchedule(37)); // whatever ran before must not matter
    const second = await traceOf(36);
    assert.ok(first.length > 1000, `a trace of ${first.length} lines`);
    assert.deepEqual(second, first);
  });

  it('passes the first 30 schedules (seeds 1–30) with every fault', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const result = await runSchedule(planSchedule(seed));
      assert.deepEqual(result.violations, [], `seed ${seed}`);
    }
  });

  // Issue 30: the TypeScript client over simulated sockets. Seed 34 found the frame server reading a
  // resumed session id as a signed long: every session of server 255 was expired on its resume
  // (session-kept). The simulated C client (--driver native) still runs the first schedules clean.
  it('passes the schedule that found the signed session id, and seeds 1–5 on the native driver', async () => {
    const plans = [planSchedule(34), ...[1, 2, 3, 4, 5].map((seed) => planSchedule(seed, { driver: 'native' }))];
    for (const plan of plans) {
      const result = await runSchedule(plan);
      assert.deepEqual(result.violations, [], `seed ${plan.seed} (${plan.driver})`);
    }
  });

  // Issue 29 (S5): the schedules that found two holders while the client counted any reply as
  // proof of life: a holder on a follower cut off from the leader (every fault), and a process
  // resumed from a pause that its follower answered before the leader, which had not heard the
  // follower's touch, expired it (seeds 41 and 387, without the follower-cut fault). Then, with
  // that fixed, seed 364: a section's completion waited on a cut-off follower after its session
  // counted as lost (unbounded release), until the ready state's writes heeded the lease's end.
  it('passes the schedules that found S5 and what its fix left open', async () => {
    const only = FAULT_KINDS.filter((kind) => kind !== 'follower-cut');
    const plans = [...[19, 65, 364, 369, 375, 379].map((seed) => planSchedule(seed)), ...[41, 387].map((seed) => planSchedule(seed, { only }))];
    for (const plan of plans) {
      const result = await runSchedule(plan);
      assert.deepEqual(result.violations, [], `seed ${plan.seed}`);
    }
  });
});
