/**
 * A dev server runs for days: the leader's log must not keep every transaction. Entries every
 * member has applied are dropped (a member that is down holds them back: it catches up from the
 * log when it starts again), so the log stays bounded however many writes go through.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RealTimeClock } from '../../src/zookeeper/simulated/real-time-clock.js';
import { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';

describe('simulated ensemble: log compaction', () => {
  it('keeps a bounded log over many writes once every member applied them; a member that is down holds them back', async () => {
    const clock = new RealTimeClock({ actor: 'test', background: ['session tick', 'container sweep', 'leader pings'] });
    try {
      const ensemble = new SimulatedEnsemble(clock, { serverIds: [1, 2, 3], latencyMs: [0, 0], applyDelayMs: [0, 0] });
      const operator = ensemble.operatorSession();
      const writes = 5000;
      for (let i = 0; i < writes; i++) {
        assert.equal(ensemble.operatorWrite(operator, { op: 'create', path: `/n${i % 10}`, data: Buffer.alloc(0), flags: 0 }).rc, 0);
        assert.equal(ensemble.operatorWrite(operator, { op: 'delete', path: `/n${i % 10}`, version: -1 }).rc, 0);
        if (i % 500 === 0) await clock.advance(1);
      }
      await clock.advance(1);
      assert.ok(ensemble.retainedLogEntries <= 2048, `${ensemble.retainedLogEntries} entries kept after ${2 * writes} writes`);
      // A member that is down applies nothing: what it has not applied stays, and it catches up when it starts.
      ensemble.setMemberUp(1, false);
      for (let i = 0; i < writes; i++) ensemble.operatorWrite(operator, { op: 'create', path: `/m${i}`, data: Buffer.alloc(0), flags: 0 });
      await clock.advance(1);
      assert.ok(ensemble.retainedLogEntries >= writes, `${ensemble.retainedLogEntries} entries kept while member 1 is down`);
      ensemble.setMemberUp(1, true);
      await clock.advance(1);
      assert.equal(ensemble.members[0]!.tree.lastZxid, ensemble.lastZxid);
      assert.equal(ensemble.members[0]!.tree.has(`/m${writes - 1}`), true);
      assert.ok(ensemble.retainedLogEntries <= 2048, `${ensemble.retainedLogEntries} entries kept once member 1 caught up`);
    } finally {
      clock.stop();
    }
  });
});
