/**
 * The chaos checker's partition rules against hand-written logs: a clean run of the partition
 * workload passes and is counted, and each rule reports a log that breaks it. No ZooKeeper involved.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, VIOLATION_KINDS, type ViolationKind } from './checker.js';
import { Scenario } from './log-scenario.js';

/** The kinds with at least one violation. */
function found(s: Scenario): Partial<Record<ViolationKind, string[]>> {
  const { violations } = check(s.input());
  return Object.fromEntries(VIOLATION_KINDS.filter((kind) => violations[kind].length > 0).map((kind) => [kind, violations[kind]]));
}

function assertOnly(s: Scenario, kind: ViolationKind): string[] {
  const all = found(s);
  assert.deepEqual(Object.keys(all), [kind], JSON.stringify(all, null, 1));
  return all[kind]!;
}

/** Worker w.inc's `owned$` becomes empty at `ms` (a drain began, or its leases were lost). */
function drop(s: Scenario, w: number, ms: number): Scenario {
  return s.log(w, 1, ms, { ev: 'p-owned', partitions: [], tokens: {} });
}

/** Partition 0: w1 (token 10) runs twice, then hands it over cleanly to w2 (token 20), which runs once; partition 1: w3 (token 15) runs once. */
function clean(dropAt: number | null = 50): Scenario {
  const s = new Scenario();
  for (const w of [1, 2, 3]) s.process(w, 1, 0, 5000);
  s.partitionRun(1, 1, 0, '10', { owned: 5, tick: 1, tickOk: true, enter: 10, v: 0, write: 20, exit: 21 });
  s.partitionRun(1, 1, 0, '10', { tick: 2, tickOk: true, enter: 30, v: 1, write: 40, exit: 41 });
  if (dropAt !== null) drop(s, 1, dropAt);
  s.partitionRun(3, 1, 1, '15', { owned: 6, tick: 1, tickOk: true, enter: 12, v: 0, write: 22, exit: 23 });
  s.partitionRun(2, 1, 0, '20', { owned: 100, tick: 1, tickOk: true, enter: 110, v: 2, write: 120, exit: 121 });
  s.driverLine(4000, { ev: 'phase', name: 'stopping' });
  return s;
}

/** w1 (token 10) owns partition 0 and is killed mid-run (after its checkpoint when `v` is given); w2 (token 20) takes over. */
function killedOwner(v: number | undefined, repairs: { interrupted: string; checkpoint?: number; repaired: boolean; at: number }[], next: { v: number; write?: number }): Scenario {
  const s = new Scenario();
  s.process(1, 1, 0, 15, { killed: true }).process(2, 1, 0, 5000).process(3, 1, 0, 5000);
  s.partitionRun(1, 1, 0, '10', { owned: 5, tick: 1, enter: 10, ...(v !== undefined && { v }) });
  s.fault('kill-worker', 15, 15, 1);
  s.partitionRun(2, 1, 0, '20', { owned: 2101, tick: 1, tickOk: true, enter: 2110, v: next.v, write: next.write ?? 2120, exit: 2121, repairs });
  s.driverLine(4000, { ev: 'phase', name: 'stopping' });
  return s;
}

describe('chaos checker: partition workload', () => {
  it('passes a clean run and counts it', () => {
    const { violations, figures } = check(clean().input());
    assert.deepEqual(VIOLATION_KINDS.filter((kind) => violations[kind].length > 0), []);
    const p = figures.partitions;
    assert.deepEqual([p.runs, p.runsCompleted, p.storeAccepted, p.ownerships, p.ownershipChanges, p.counterTotal], [4, 4, 8, 3, 1, 4]);
    // The counter lock's rules see none of the partitions' store ops.
    assert.equal(figures.storeAccepted, 0);
  });

  it('passes a killed owner repaired once by the next owner, and counts the repair', () => {
    const s = killedOwner(0, [{ interrupted: '10', checkpoint: 0, repaired: true, at: 2100 }], { v: 1 });
    assert.deepEqual(found(s), {});
    const p = check(s.input()).figures.partitions;
    assert.deepEqual([p.recoveryRuns, p.repairsApplied, p.ownershipChanges], [1, 1, 1]);
  });

  it('passes a repair by a grant lost during its take-over, the next owner finding the record clean', () => {
    const s = killedOwner(0, [], { v: 1 });
    s.log(3, 1, 1000, { ev: 'p-recovered', p: 0, token: '15', interrupted: '10', checkpoint: 0, repaired: true });
    s.storeOp(1000, { w: 3, inc: 1, op: 'write', token: '15', accepted: true, expect: 0, value: 1, kind: 'repair', interrupted: '10', partition: 0 });
    s.log(3, 1, 1001, { ev: 'p-lost', p: 0, token: '15', error: 'LockLostError' });
    s.end = { ...s.end, partitionCounters: { 0: 2 } };
    assert.deepEqual(found(s), {});
    assert.equal(check(s.input()).figures.partitions.recoveryReruns, 1);
  });

  it('passes a run whose body ended cleanly but whose tick failed, repaired or not (its completion is unknown)', () => {
    for (const repairs of [[], [{ interrupted: '10', checkpoint: 0, repaired: false, at: 2100 }]]) {
      const s = new Scenario();
      s.process(1, 1, 0, 5000).process(2, 1, 0, 5000);
      s.partitionRun(1, 1, 0, '10', { owned: 5, tick: 1, tickOk: false, enter: 10, v: 0, write: 20, exit: 21 });
      s.log(1, 1, 1000, { ev: 'p-lost', p: 0, token: '10', error: 'LockLostError' });
      s.partitionRun(2, 1, 0, '20', { owned: 2101, tick: 1, tickOk: true, enter: 2110, v: 1, write: 2120, exit: 2121, repairs });
      assert.deepEqual(found(s), {}, `with ${repairs.length} repair(s)`);
    }
  });

  it('passes a dirty tenure whose record a wipe erased, and counts it', () => {
    const s = new Scenario();
    s.process(1, 1, 0, 15, { killed: true }).process(2, 1, 0, 5000);
    s.partitionRun(1, 1, 0, '10', { owned: 5, tick: 1, enter: 10, v: 0 });
    s.newEra(1000);
    s.partitionRun(2, 1, 0, '3', { owned: 2101, tick: 1, tickOk: true, enter: 2110, v: 0, write: 2120, exit: 2121 });
    assert.deepEqual(found(s), {});
    const p = check(s.input()).figures.partitions;
    assert.deepEqual([p.sectionsWiped, p.incrementsLostToWipe], [1, 1]); // its checkpointed 0 -> 1 was never applied in its era
  });

  it('partition-overlap: a previous owner that still believed it owned the partition', () => {
    assert.match(assertOnly(clean(null), 'partition-overlap')[0]!, /^partition 0: w1\.1 token 10 owned it \[5ms\.\.5000ms\] and w2\.1 token 20 from 100ms/);
    // Cut off, it said so only after the next owner took over: no excuse.
    const late = clean(null).log(1, 1, 150, { ev: 'p-lost', p: 0, token: '10', error: 'LockLostError' });
    assert.match(assertOnly(late, 'partition-overlap')[0]!, /owned it \[5ms\.\.150ms\]/);
    // A drained owner's run still going when the next one took over.
    const draining = clean(60).partitionRun(1, 1, 0, '10', { tick: 3, tickOk: true, enter: 55, exit: 105 });
    assert.match(assertOnly(draining, 'partition-overlap')[0]!, /owned it \[5ms\.\.105ms\]/);
  });

  it('partition-overlap: excused for a frozen previous owner; a drained owner whose runs ended before the next took over is none', () => {
    const frozen = clean(null).fault('stop-worker', 60, 3000, 1);
    assert.deepEqual(found(frozen), {});
    assert.equal(check(frozen.input()).figures.partitions.excusedOverlaps, 1);
    const drained = clean(60).partitionRun(1, 1, 0, '10', { tick: 3, tickOk: true, enter: 55, exit: 95 });
    assert.deepEqual(found(drained), {});
  });

  it('stuck: a partition without an owner for longer than the bound', () => {
    const s = new Scenario();
    s.process(1, 1, 0, 50_000).process(2, 1, 0, 50_000);
    s.partitionRun(1, 1, 0, '10', { owned: 5, tick: 1, tickOk: true, enter: 10, exit: 11 });
    drop(s, 1, 50);
    s.partitionRun(2, 1, 0, '20', { owned: 40_050, tick: 1, tickOk: true, enter: 40_060, exit: 40_061 });
    s.driverLine(45_000, { ev: 'phase', name: 'stopping' });
    assert.deepEqual(assertOnly(s, 'stuck'), ['partition 0 had no owner for 40000ms']);
    assert.equal(check(clean().input()).figures.partitions.longestOwnerGapMs, 50);
  });

  it('partition-cas: a write found its partition counter changed since its read', () => {
    const s = new Scenario();
    s.process(1, 1, 0, 5000).process(2, 1, 0, 5000);
    s.partitionRun(1, 1, 0, '10', { owned: 5, tick: 1, tickOk: false, enter: 10, v: 0, write: 20, refused: 'cas', exit: 21, error: 'StoreRefusedError' });
    drop(s, 1, 22);
    s.partitionRun(2, 1, 0, '20', { owned: 2101, tick: 1, tickOk: true, enter: 2110, v: 1, write: 2120, exit: 2121, repairs: [{ interrupted: '10', checkpoint: 0, repaired: true, at: 2100 }] });
    assert.match(assertOnly(s, 'partition-cas')[0]!, /^partition 0: w1\.1 token 10 write expecting 0 refused/);
  });

  it('partition-store-order: an older token of a partition accepted after a newer one, or one token from two processes', () => {
    const older = clean().storeOp(200, { w: 3, inc: 1, op: 'read', token: '12', accepted: true, partition: 0 });
    assert.match(assertOnly(older, 'partition-store-order')[0]!, /^partition 0: read with token 12 \(w3\.1\) accepted at .* after token 20 \(w2\.1\)/);
    const twice = clean().storeOp(200, { w: 3, inc: 1, op: 'read', token: '20', accepted: true, partition: 0 });
    assert.match(assertOnly(twice, 'partition-store-order')[0]!, /token 20 used by w2\.1 and w3\.1/);
    // Another partition's older token is no violation: each partition is fenced alone.
    assert.deepEqual(found(clean().storeOp(200, { w: 3, inc: 1, op: 'read', token: '16', accepted: true, partition: 1 })), {});
  });

  it('partition-recovery: the next owner took over without repairing a killed owner', () => {
    const violations = assertOnly(killedOwner(undefined, [], { v: 0 }), 'partition-recovery');
    assert.match(violations[0]!, /partition 0: w1\.1 token 10 \(its run never ended\) was not repaired by the partition's next owner to take over, partition 0: w2\.1 token 20/);
  });

  it('partition-recovery: a run that threw is not repaired by the next owner', () => {
    const s = new Scenario();
    s.process(1, 1, 0, 5000);
    s.partitionRun(1, 1, 0, '10', { owned: 5, tick: 1, tickOk: false, enter: 10, exit: 21, error: 'StoreRefusedError' });
    s.partitionRun(1, 1, 0, '11', { owned: 100, tick: 2, tickOk: true, enter: 110, v: 0, write: 120, exit: 121 });
    assert.match(assertOnly(s, 'partition-recovery')[0]!, /token 10 \(StoreRefusedError\) was not repaired/);
  });

  it('partition-recovery: repaired again after the next owner', () => {
    const s = killedOwner(undefined, [{ interrupted: '10', repaired: false, at: 2100 }], { v: 0 });
    drop(s, 2, 2900);
    s.partitionRun(3, 1, 0, '30', { owned: 3001, tick: 1, tickOk: true, enter: 3010, v: 1, write: 3020, exit: 3021, repairs: [{ interrupted: '10', repaired: false, at: 3000 }] });
    assert.match(assertOnly(s, 'partition-recovery')[0]!, /token 10 repaired again by partition 0: w3\.1 token 30 after partition 0: w2\.1 token 20/);
  });

  it('partition-recovery: one increment repaired twice, as the store saw it', () => {
    const s = killedOwner(0, [{ interrupted: '10', checkpoint: 0, repaired: true, at: 2100 }], { v: 1 });
    s.storeOp(3000, { w: 3, inc: 1, op: 'write', token: '30', accepted: true, expect: 2, value: 3, kind: 'repair', interrupted: '10', partition: 0 });
    s.end = { ...s.end, partitionCounters: { 0: 3 } };
    assert.deepEqual(assertOnly(s, 'partition-recovery'), ['partition 0: the increment of token 0:10 was repaired 2 times']);
  });

  it('partition-recovery: a repair of a newer tenure, or of a token nobody owned', () => {
    const newer = clean();
    newer.partitionRun(3, 1, 1, '16', { tick: 2, tickOk: true, enter: 200, exit: 201, repairs: [{ interrupted: '20', repaired: false, at: 199 }] });
    assert.match(assertOnly(newer, 'partition-recovery')[0]!, /partition 1: w3\.1 token 16 repaired token 20, which no owner of the partition logged/);
    const spurious = clean();
    spurious.partitionRun(3, 1, 1, '17', { tick: 2, tickOk: true, enter: 200, exit: 201, repairs: [{ interrupted: '18', repaired: false, at: 199 }] });
    drop(spurious, 3, 250);
    spurious.partitionRun(1, 1, 1, '18', { owned: 300, tick: 3, tickOk: true, enter: 310, exit: 311 });
    assert.ok(found(spurious)['partition-recovery']?.some((v) => /token 17 repaired a newer partition 1: w1\.1 token 18/.test(v)), JSON.stringify(found(spurious)));
  });

  it('partition-recovery: the repair came after the next owner had begun its own run', () => {
    const s = new Scenario();
    s.process(1, 1, 0, 15, { killed: true }).process(2, 1, 0, 5000);
    s.partitionRun(1, 1, 0, '10', { owned: 5, tick: 1, enter: 10 });
    s.fault('kill-worker', 15, 15, 1);
    s.partitionRun(2, 1, 0, '20', { owned: 2101, tick: 1, tickOk: true, enter: 2110, exit: 2111 });
    s.partitionRun(2, 1, 0, '20', { tick: 2, tickOk: true, enter: 2210, exit: 2211, repairs: [{ interrupted: '10', repaired: false, at: 2200 }] });
    assert.match(assertOnly(s, 'partition-recovery')[0]!, /w2\.1 token 20 repaired partition 0: w1\.1 token 10 at 2200ms, after its own run began/);
  });

  it('partition-lost-increment: a checkpointed increment applied by another owner', () => {
    const s = killedOwner(0, [{ interrupted: '10', checkpoint: 0, repaired: false, at: 2100 }], { v: 0 });
    assert.match(assertOnly(s, 'partition-lost-increment')[0]!, /^partition 0: token 10 checkpointed 0, but 0 -> 1 was written by token 20 \(section\)/);
  });

  it('partition-end-state: a counter that is not its accepted writes', () => {
    const s = clean();
    s.end = { ...s.end, partitionCounters: { 0: 3, 1: 2 } };
    assert.deepEqual(assertOnly(s, 'partition-end-state'), ['partition 1: its counter says 2, but the store accepted 1 writes for it']);
  });

  it('partition-end-state: a ready znode dirty at the end although a later owner took over', () => {
    const s = killedOwner(0, [{ interrupted: '10', checkpoint: 0, repaired: true, at: 2100 }], { v: 1 });
    s.end = { ...s.end, partitionReady: { 0: { state: 'dirty', token: '10' } } };
    assert.match(assertOnly(s, 'partition-end-state')[0]!, /partition 0: the ready znode is dirty with token 10 at the end, although w2\.1 token 20 took over after it/);
    // Dirty with the last owner's token (killed last, nobody after): no violation.
    const last = killedOwner(0, [{ interrupted: '10', checkpoint: 0, repaired: true, at: 2100 }], { v: 1 });
    last.end = { ...last.end, partitionReady: { 0: { state: 'dirty', token: '20' } } };
    assert.deepEqual(found(last), {});
  });
});
