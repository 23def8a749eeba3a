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

  it('passes the first 30 schedules (seeds 1–30) with no violation, without the follower-cut fault', async () => {
    const only = FAULT_KINDS.filter((kind) => kind !== 'follower-cut');
    for (let seed = 1; seed <= 30; seed++) {
      const result = await runSchedule(planSchedule(seed, { only }));
      assert.deepEqual(result.violations, [], `seed ${seed}`);
    }
  });

  // Issue 29 (S5): a holder on a follower cut off from the leader hears its pings answered while
  // the leader expires its session; the client counts any reply as proof of life, so seed 19
  // finds a holder whose node is gone (and, without that fault, seeds 41 and 387 a process
  // resumed from a pause that the leader expires before its follower forwards the touch). Drop
  // `todo` once the session-loss clock counts only replies that went through the leader.
  it('passes the first 30 schedules (seeds 1–30) with every fault', { todo: 'issue 29: S5, the client trusts a cut-off follower' }, async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const result = await runSchedule(planSchedule(seed));
      assert.deepEqual(result.violations, [], `seed ${seed}`);
    }
  });
});
