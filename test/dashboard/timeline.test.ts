/**
 * The dashboard's timeline lines, for people (issue 31: durations came out as
 * `501.5458750000107 ms`, the raw difference of two `performance.now()` readings).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { successionEntry, timelineEntryOf } from '../../src/dashboard/timeline.js';

describe('the dashboard timeline', () => {
  it('shows wait and hold times in whole milliseconds', () => {
    const base = { name: 'payout', path: '/zk-lock/locks/payout', token: 42n };
    assert.equal(timelineEntryOf({ ...base, type: 'lock.acquired', waitMs: 501.5458750000107, handoff: true }).detail, 'token 42, waited 502 ms');
    assert.equal(timelineEntryOf({ ...base, type: 'lock.released', holdMs: 12.4999 }).detail, 'token 42, held 12 ms');
    assert.equal(timelineEntryOf({ type: 'lock.timeout', name: 'payout', path: base.path, waitMs: 2000.0001 }).detail, 'gave up after 2000 ms');
  });

  it("says whose each line is: this process's event, or a change seen in the cluster", () => {
    assert.equal(timelineEntryOf({ type: 'lock.released', name: 'payout', path: '/zk-lock/locks/payout', token: 42n, holdMs: 3 }).origin, 'process');
    assert.equal(successionEntry('lock', 'payout', { node: '_c_x-lock-0000000001', identity: 'replica-b' }).origin, 'cluster');
    assert.equal(successionEntry('election', 'scheduler', null).origin, 'cluster');
  });
});
