/**
 * The chaos checker against hand-written logs: a clean run passes (also with a repaired crash and an
 * excused SIGSTOP overlap), and each kind of violation is reported. No ZooKeeper involved.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COUNTER_KEY, lockKey } from './chaos-names.js';
import { check, VIOLATION_KINDS, type ViolationKind } from './checker.js';
import { Scenario, type SectionPlan } from './log-scenario.js';

/** Three workers, three clean sections (tokens 10, 20, 30), two leaders one after the other. */
function clean(): Scenario {
  const s = new Scenario();
  for (const w of [1, 2, 3]) s.process(w, 1, 0, 1000);
  s.section(1, 1, '10', { want: 5, acquired: 10, v: 0, write: 20, exit: 21, released: 22, outcome: 'ok' });
  s.section(2, 1, '20', { want: 6, acquired: 30, v: 1, write: 40, exit: 41, released: 42, outcome: 'ok' });
  s.section(3, 1, '30', { want: 7, acquired: 50, v: 2, write: 60, exit: 61, released: 62, outcome: 'ok' });
  s.leader(1, 1, '100', 5, 500).leader(2, 1, '200', 600, 990);
  s.driverLine(900, { ev: 'phase', name: 'stopping' });
  return s;
}

/** The kinds with at least one violation. */
function found(s: Scenario): Partial<Record<ViolationKind, string[]>> {
  const { violations } = check(s.input());
  return Object.fromEntries(VIOLATION_KINDS.filter((kind) => violations[kind].length > 0).map((kind) => [kind, violations[kind]]));
}

function assertOnly(s: Scenario, kind: ViolationKind): void {
  const kinds = Object.keys(found(s));
  assert.deepEqual(kinds, [kind], JSON.stringify(found(s), null, 1));
}

/** w1's section (token 10) as planned, then w2 (token 20) enters, having read counter `v`. */
function afterSection(first: SectionPlan, v: number, repairs: SectionPlan['repairs'] = []): Scenario {
  const s = new Scenario();
  s.process(1, 1, 0, 5000).process(2, 1, 0, 5000);
  s.section(1, 1, '10', first);
  s.section(2, 1, '20', { acquired: 1100, v, write: 1120, exit: 1121, released: 1122, outcome: 'ok', repairs });
  return s;
}

/** The outcome of `first` is unknown: w2 may repair it or not, and neither is a violation. */
function assertRepairOptional(first: SectionPlan): void {
  for (const repairs of [[], [{ interrupted: '10', checkpoint: 0, repaired: false, at: 1105 }]]) {
    assert.deepEqual(found(afterSection(first, 1, repairs)), {}, `with ${repairs.length} repair(s)`);
  }
}

/** `first` was interrupted: w2 entering without repairing it is a violation. */
function assertRepairRequired(first: SectionPlan, v: number): void {
  assert.ok(found(afterSection(first, v))['recovery-missing']);
}

/** w1 (token 10) is SIGKILLed after its checkpoint; w2 (token 20) gets the lock a session timeout later. */
function crashed(repair?: { repaired: boolean }): Scenario {
  const s = new Scenario();
  s.process(1, 1, 0, 15, { killed: true }).process(2, 1, 0, 5000);
  s.section(1, 1, '10', { acquired: 10, v: 0 });
  s.fault('kill-worker', 15, 15, 1);
  s.section(2, 1, '20', { want: 12, acquired: 2100, v: 1, write: 2120, exit: 2121, released: 2122, outcome: 'ok', repairs: repair ? [{ interrupted: '10', checkpoint: 0, at: 2105, ...repair }] : [] });
  s.driverLine(4000, { ev: 'phase', name: 'stopping' });
  return s;
}

describe('chaos checker', () => {
  it('passes a clean run and counts what happened', () => {
    const { violations, figures } = check(clean().input());
    assert.deepEqual(VIOLATION_KINDS.filter((kind) => violations[kind].length > 0), []);
    assert.equal(figures.acquisitions, 3);
    assert.equal(figures.sectionsCompleted, 3);
    assert.equal(figures.storeAccepted, 6);
    assert.equal(figures.finalCounter, 3);
    assert.equal(figures.leaderTerms, 2);
    assert.equal(figures.longestLeaderGapMs, 100);
  });

  it('passes a crash repaired once by the next holder', () => {
    const s = crashed({ repaired: true });
    const { figures } = check(s.input());
    assert.deepEqual(found(s), {});
    assert.equal(figures.repairsApplied, 1);
    assert.equal(figures.longestLockGapMs, 2085);
  });

  it('passes a holder killed between its body and its return, repaired or not (its completion is unknown)', () => {
    for (const repaired of [false, true]) {
      const s = new Scenario();
      s.process(1, 1, 0, 25, { killed: true }).process(2, 1, 0, 5000);
      s.section(1, 1, '10', { acquired: 10, v: 0, write: 20, exit: 21, released: 22 });
      s.fault('kill-worker', 25, 25, 1);
      const repairs = repaired ? [{ interrupted: '10', checkpoint: 0, repaired: false, at: 2105 }] : [];
      s.section(2, 1, '20', { acquired: 2100, v: 1, write: 2120, exit: 2121, released: 2122, outcome: 'ok', repairs });
      assert.deepEqual(found(s), {});
      assert.equal(check(s.input()).figures.sectionsOutcomeUnknown, 1);
    }
  });

  it('passes a call whose completion write died with the connection after its body ended (applied or not)', () => {
    assertRepairOptional({ acquired: 10, v: 0, write: 20, exit: 21, released: 22, outcome: 'ZooKeeperError:CONNECTIONLOSS' });
    // A failure inside the body is no such doubt: the next holder must repair it.
    assertRepairRequired({ acquired: 10, v: 0, exit: 21, released: 22, bodyError: 'ZooKeeperError:CONNECTIONLOSS', outcome: 'ZooKeeperError:CONNECTIONLOSS' }, 0);
  });

  it('passes a call whose lease was lost only after its body ended (its completion write went out: applied or not)', () => {
    assertRepairOptional({ acquired: 10, v: 0, write: 20, exit: 21, lost: 900, outcome: 'LockLostError' });
    // Lost while the body still ran: the section stays dirty, and the next holder must repair it.
    assertRepairRequired({ acquired: 10, v: 0, write: 20, lost: 21, exit: 22, outcome: 'LockLostError' }, 1);
  });

  it('lock-overlap: a holder granted while another still held', () => {
    const s = clean();
    s.section(4, 1, '40', { acquired: 70, v: 3, write: 90, exit: 201, released: 202, outcome: 'ok' });
    s.section(5, 1, '50', { acquired: 100, v: 4, write: 300, exit: 301, released: 302, outcome: 'ok' });
    assertOnly(s, 'lock-overlap');
  });

  it('lock-overlap: a holder cut off reports the loss after its successor was granted (invariant 2)', () => {
    const s = clean();
    s.fault('cut-1.5T', 100, 3100, 4);
    s.section(4, 1, '40', { acquired: 70, v: 3, write: 80, exit: 81, lost: 2500, outcome: 'LockLostError' });
    s.section(5, 1, '50', { acquired: 2400, v: 4, write: 2410, exit: 2411, released: 2412, outcome: 'ok', repairs: [{ interrupted: '40', checkpoint: 3, repaired: false, at: 2401 }] });
    assertOnly(s, 'lock-overlap');
  });

  it('excuses an overlap of a SIGSTOPped holder, but not one that then reports success (stale-success)', () => {
    const stopped = () => {
      const s = clean();
      s.fault('stop-worker', 75, 3075, 4);
      s.section(5, 1, '50', { acquired: 2100, v: 4, write: 2110, exit: 2111, released: 2112, outcome: 'ok', repairs: [{ interrupted: '40', checkpoint: 3, repaired: true, at: 2101 }] });
      return s;
    };
    // Resumed, it writes with its old token: the store refuses it; the lease's loss is logged late.
    const excused = stopped().section(4, 1, '40', { acquired: 70, v: 3, write: 3080, refused: 'stale', exit: 3081, lost: 3090, bodyError: 'StoreRefusedError', outcome: 'StoreRefusedError' });
    assert.deepEqual(found(excused), {});
    assert.equal(check(excused.input()).figures.excusedLockOverlaps, 1);
    const reportedOk = stopped().section(4, 1, '40', { acquired: 70, v: 3, write: 3080, refused: 'stale', exit: 3081, released: 3090, outcome: 'ok' });
    assert.ok(found(reportedOk)['stale-success']);
  });

  it('token-order: a later grant with an older token', () => {
    const s = clean();
    s.section(4, 1, '25', { acquired: 70, v: 3, write: 80, exit: 81, released: 82, outcome: 'ok' });
    assert.ok(found(s)['token-order']);
  });

  it('store-order: an older token accepted after a newer one, or one token from two processes', () => {
    const older = clean().storeOp(70, { w: 1, inc: 1, op: 'read', token: '10', accepted: true });
    assertOnly(older, 'store-order');
    const shared = clean().storeOp(70, { w: 1, inc: 1, op: 'read', token: '30', accepted: true });
    assertOnly(shared, 'store-order');
    const beats = clean().storeOp(600, { w: 2, inc: 1, op: 'beat', token: '200', accepted: true }).storeOp(610, { w: 1, inc: 1, op: 'beat', token: '100', accepted: true });
    assertOnly(beats, 'store-order');
  });

  it('cas-conflict: a write that found the counter changed since its read', () => {
    const s = clean();
    s.section(4, 1, '40', { acquired: 70, v: 2, write: 80, refused: 'cas', exit: 81, released: 82, bodyError: 'StoreRefusedError', outcome: 'StoreRefusedError' });
    assert.ok(found(s)['cas-conflict']);
  });

  it('lost-increment: a checkpointed increment applied by someone else', () => {
    const s = crashed();
    // w2 did not repair token 10 and read the value 0 itself: token 10's increment is gone.
    const fresh = new Scenario();
    fresh.process(1, 1, 0, 15, { killed: true }).process(2, 1, 0, 5000);
    fresh.section(1, 1, '10', { acquired: 10, v: 0 }).fault('kill-worker', 15, 15, 1);
    fresh.section(2, 1, '20', { acquired: 2100, v: 0, write: 2120, exit: 2121, released: 2122, outcome: 'ok' });
    assert.ok(found(fresh)['lost-increment']);
    assert.ok(found(s)['lost-increment'], 'no repair and no later section: the increment never happened');
  });

  it('counter: the counter file disagrees with the accepted increments', () => {
    const s = clean();
    s.end = { finalCounter: 4, orphans: [] };
    assertOnly(s, 'counter');
  });

  it('recovery-missing: the next holder to enter did not repair a crash', () => {
    const s = crashed();
    assert.ok(found(s)['recovery-missing']);
  });

  it('recovery-duplicate: a crash repaired by two holders', () => {
    const s = crashed({ repaired: true });
    s.section(3, 1, '30', { acquired: 2200, v: 2, write: 2220, exit: 2221, released: 2222, outcome: 'ok', repairs: [{ interrupted: '10', checkpoint: 0, repaired: false, at: 2205 }] });
    s.process(3, 1, 0, 5000);
    assertOnly(s, 'recovery-duplicate');
  });

  it('recovery-spurious: a repair of a section that had completed', () => {
    const s = clean();
    s.section(4, 1, '40', { acquired: 70, v: 3, write: 80, exit: 81, released: 82, outcome: 'ok', repairs: [{ interrupted: '30', checkpoint: 2, repaired: false, at: 71 }] });
    s.process(4, 1, 0, 1000);
    assertOnly(s, 'recovery-spurious');
  });

  it('leader-overlap: two leaders at once; a SIGSTOP of the older excuses it, a cut does not', () => {
    const overlap = () => clean().leader(3, 1, '300', 900);
    assertOnly(overlap(), 'leader-overlap');
    const stopped = overlap().fault('stop-worker', 850, 4000, 2);
    assert.deepEqual(found(stopped), {});
    assert.equal(check(stopped.input()).figures.excusedLeaderOverlaps, 1);
    assertOnly(overlap().fault('cut-1.5T', 850, 4000, 2), 'leader-overlap');
  });

  it('leader-token-order: a later leader with an older token', () => {
    assertOnly(clean().leader(3, 1, '150', 995, 999), 'leader-token-order');
  });

  it('stuck: a wait beyond the bound, and a worker that did not stop', () => {
    const s = clean();
    s.log(3, 1, 100, { ev: 'want' }).log(3, 1, 100 + 31_000, { ev: 'acquired', token: '40' });
    assert.ok(found(s).stuck);
    assertOnly(clean().driverLine(950, { ev: 'stuck', w: 1, inc: 1, note: 'did not stop' }), 'stuck');
  });

  it('unexpected-exit, orphan, dirty-at-end', () => {
    const crashed = new Scenario();
    crashed.process(1, 1, 0, 50, { code: 1 });
    assertOnly(crashed, 'unexpected-exit');
    const orphans = clean();
    orphans.end = { finalCounter: 3, orphans: ['/chaos/locks/counter/_c_x-lock-0000000001'] };
    assertOnly(orphans, 'orphan');
    const dirty = clean();
    dirty.end = { finalCounter: 3, orphans: [], lockReady: { state: 'dirty', token: '20' } };
    assertOnly(dirty, 'dirty-at-end');
    const dirtyElection = clean();
    dirtyElection.end = { finalCounter: 3, orphans: [], lockReady: { state: 'ready', token: '30' }, electionReady: { state: 'dirty', token: '200' } };
    assertOnly(dirtyElection, 'dirty-at-end');
  });

  it('excuses an overlap of a holder whose event loop was blocked, as for a SIGSTOP (block-worker)', () => {
    const blocked = () => {
      const s = clean();
      s.fault('block-worker', 75, 1675, 4);
      s.section(5, 1, '50', { acquired: 1500, v: 4, write: 1510, exit: 1511, released: 1512, outcome: 'ok', repairs: [{ interrupted: '40', checkpoint: 3, repaired: true, at: 1501 }] });
      return s;
    };
    const excused = blocked().section(4, 1, '40', { acquired: 70, v: 3, write: 1680, refused: 'stale', exit: 1681, lost: 1690, bodyError: 'StoreRefusedError', outcome: 'StoreRefusedError' });
    assert.deepEqual(found(excused), {});
    assert.equal(check(excused.input()).figures.excusedLockOverlaps, 1);
    const reportedOk = blocked().section(4, 1, '40', { acquired: 70, v: 3, write: 1680, refused: 'stale', exit: 1681, released: 1690, outcome: 'ok' });
    assert.ok(found(reportedOk)['stale-success']);
    // The worker's own block line excuses it too, without the driver's fault line.
    const overlap = () => clean().leader(3, 1, '300', 900);
    assertOnly(overlap(), 'leader-overlap');
    const ownLine = overlap().log(2, 1, 950, { ev: 'block', token: '20', start: Scenario.ns(850), end: Scenario.ns(950) });
    assert.deepEqual(found(ownLine), {});
  });

  describe('lock sets, read/write locks and semaphores', () => {
    const AUX1 = lockKey('lock', 'aux-1');
    const AUX2 = lockKey('lock', 'aux-2');
    const RW = lockKey('rw', 'shelf');
    const POOL = lockKey('semaphore', 'pool');
    /**
     * clean() and workers 4 and 5, and after the sections: two lock sets (one with the counter,
     * token 40), three readers at once then a writer then a reader, and a semaphore of 3 permits
     * held by 2 + 1, then 2 + 1 again.
     */
    const workloads = () => {
      const s = clean().process(4, 1, 0, 1000).process(5, 1, 0, 1000);
      s.call(4, 1, 1, { what: 'set', grants: { [AUX1]: '5', [COUNTER_KEY]: '40' }, want: 65, acquired: 70, body: [71, 80], released: 81, outcome: 'ok' });
      s.call(5, 1, 1, { what: 'set', grants: { [AUX1]: '7', [AUX2]: '3' }, want: 66, acquired: 100, body: [101, 110], released: 111, outcome: 'ok' });
      s.call(1, 1, 10, { what: 'read', grants: { [RW]: '100' }, acquired: 200, body: [201, 240], released: 241, outcome: 'ok' });
      s.call(2, 1, 10, { what: 'read', grants: { [RW]: '100' }, acquired: 210, body: [211, 250], released: 251, outcome: 'ok' });
      s.call(3, 1, 10, { what: 'read', grants: { [RW]: '101' }, acquired: 220, body: [221, 230], released: 231, outcome: 'ok' });
      s.call(4, 1, 10, { what: 'write', grants: { [RW]: '120' }, want: 215, acquired: 260, body: [261, 270], released: 271, outcome: 'ok' });
      s.call(5, 1, 10, { what: 'read', grants: { [RW]: '130' }, want: 216, acquired: 280, body: [281, 290], released: 291, outcome: 'ok' });
      s.call(1, 1, 20, { what: 'semaphore', take: 2, grants: { [POOL]: '500' }, acquired: 300, body: [301, 340], released: 341, outcome: 'ok' });
      s.call(2, 1, 20, { what: 'semaphore', grants: { [POOL]: '501' }, acquired: 310, body: [311, 330], released: 331, outcome: 'ok' });
      s.call(3, 1, 20, { what: 'semaphore', grants: { [POOL]: '502' }, want: 312, acquired: 335, body: [336, 350], released: 351, outcome: 'ok' });
      s.call(4, 1, 20, { what: 'semaphore', take: 2, grants: { [POOL]: '510' }, want: 313, acquired: 345, body: [346, 360], released: 361, outcome: 'ok' });
      return s;
    };

    it('passes them run clean, and counts the readers that shared and the permits held at once', () => {
      const s = workloads();
      assert.deepEqual(found(s), {});
      const { figures } = check(s.input());
      assert.equal(figures.setCalls, 2);
      assert.equal(figures.setsCompleted, 2);
      assert.equal(figures.setHolds, 4);
      assert.equal(figures.acquisitions, 4, 'the set that names the counter lock holds it as the sections do');
      assert.equal(figures.acquisitionsBySets, 1);
      assert.equal(figures.sectionsCompleted, 3);
      assert.equal(figures.readHolds, 4);
      assert.equal(figures.writeHolds, 1);
      assert.equal(figures.maxConcurrentReaders, 3);
      assert.equal(figures.semaphoreHolds, 4);
      assert.equal(figures.semaphoreMultiPermitHolds, 2);
      assert.equal(figures.maxPermitsHeld, 3);
      assert.equal(figures.semaphoreCapacity, 3);
    });

    it('set-overlap: a set holds the counter lock while a section does', () => {
      const s = workloads();
      s.call(5, 1, 2, { what: 'set', grants: { [COUNTER_KEY]: '35' }, want: 40, acquired: 55, body: [56, 58], released: 59, outcome: 'ok' });
      assertOnly(s, 'set-overlap');
    });

    it('set-overlap: two sets hold a lock only sets take; a frozen older one is excused unless its call succeeds', () => {
      const overlap = (outcome: string) => workloads().call(3, 1, 2, { what: 'set', grants: { [AUX1]: '6', [AUX2]: '2' }, want: 90, acquired: 95, body: [96, 105], released: 106, outcome });
      assertOnly(overlap('ok'), 'set-overlap');
      const stopped = (outcome: string) => overlap(outcome).fault('stop-worker', 97, 3100, 3);
      assert.deepEqual(found(stopped('LockLostError')), {});
      assert.equal(check(stopped('LockLostError').input()).figures.excusedRecipeOverlaps, 2, 'both its holds');
      assertOnly(stopped('ok'), 'stale-success');
    });

    it('token-order: a lock only sets take granted with an older token', () => {
      assertOnly(workloads().call(3, 1, 2, { what: 'set', grants: { [AUX1]: '6' }, want: 115, acquired: 120, body: [121, 125], released: 126, outcome: 'ok' }), 'token-order');
    });

    it('rw-exclusion: a writer beside a reader or a writer (readers beside readers are fine)', () => {
      assertOnly(workloads().call(5, 1, 11, { what: 'write', grants: { [RW]: '105' }, acquired: 235, body: [236, 238], released: 239, outcome: 'ok' }), 'rw-exclusion');
      assertOnly(workloads().call(5, 1, 11, { what: 'write', grants: { [RW]: '125' }, acquired: 265, body: [266, 268], released: 269, outcome: 'ok' }), 'rw-exclusion');
      assertOnly(workloads().call(5, 1, 11, { what: 'read', grants: { [RW]: '125' }, acquired: 265, body: [266, 268], released: 269, outcome: 'ok' }), 'rw-exclusion');
      assert.deepEqual(found(workloads().call(5, 1, 11, { what: 'read', grants: { [RW]: '100' }, acquired: 225, body: [226, 245], released: 246, outcome: 'ok' })), {});
    });

    it('rw-token-order: a writer whose token is not above every earlier grant, or not below every later one', () => {
      // A reader before the writer (token 120) with a higher token; a reader after it with a lower one.
      assertOnly(workloads().call(5, 1, 11, { what: 'read', grants: { [RW]: '121' }, acquired: 252, body: [253, 255], released: 256, outcome: 'ok' }), 'rw-token-order');
      assertOnly(workloads().call(5, 1, 11, { what: 'read', grants: { [RW]: '119' }, acquired: 275, body: [276, 277], released: 278, outcome: 'ok' }), 'rw-token-order');
      // Readers are not ordered among themselves.
      assert.deepEqual(found(workloads().call(5, 1, 11, { what: 'read', grants: { [RW]: '99' }, acquired: 253, body: [254, 255], released: 256, outcome: 'ok' })), {});
    });

    it('permits-exceeded: more permits held at once than the capacity; a frozen holder is excused unless its call succeeds', () => {
      const over = (outcome: string) => workloads().call(5, 1, 20, { what: 'semaphore', grants: { [POOL]: '503' }, want: 314, acquired: 320, body: [321, 325], released: 326, outcome });
      assertOnly(over('ok'), 'permits-exceeded');
      // w1 (2 permits) frozen from before w5's grant: its session may have expired, its permits gone.
      const stopped = (outcome: string) => workloads().fault('stop-worker', 305, 3305, 1).call(5, 1, 20, { what: 'semaphore', grants: { [POOL]: '503' }, want: 314, acquired: 320, body: [321, 325], released: 326, outcome: 'ok' });
      assert.ok(found(stopped('ok'))['stale-success'], 'w1 was frozen, yet its call returned normally');
      const lostIt = workloads().fault('stop-worker', 305, 3305, 1);
      lostIt.workers.splice(lostIt.workers.findIndex((e) => e.ev === 'call-done' && e.w === 1 && e.call === 20), 1, { t: Scenario.ns(3400), w: 1, inc: 1, ev: 'call-done', call: 20, ok: false, ran: true, error: 'LockLostError' });
      lostIt.call(5, 1, 20, { what: 'semaphore', grants: { [POOL]: '503' }, want: 314, acquired: 320, body: [321, 325], released: 326, outcome: 'ok' });
      assert.deepEqual(found(lostIt), {});
      assert.equal(check(lostIt.input()).figures.maxPermitsHeld, 3);
    });

    it('stuck: a call that never ends', () => {
      const s = clean();
      s.process(4, 1, 0, 40_000).call(4, 1, 1, { what: 'read', grants: {}, want: 100 });
      assertOnly(s, 'stuck');
      // Killed while it waited: not stuck.
      const killed = clean();
      killed.process(4, 1, 0, 40_000, { killed: true }).call(4, 1, 1, { what: 'read', grants: {}, want: 100 });
      assert.deepEqual(found(killed), {});
    });
  });

  describe('cooperative revocation: release and step-down requests', () => {
    const node = (n: number) => `/chaos/locks/counter/_c_x-lock-${String(n).padStart(10, '0')}`;
    const electionNode = (n: number) => `/chaos/elections/chaos/_c_x-n-${String(n).padStart(10, '0')}`;
    const session = (w: number) => `10000000000000${w}`;
    /**
     * clean() with sessions and queue nodes, and requests: w2 asks for a release at 12 ms, which
     * w1 (token 10, reading releaseRequested) sees at 14 ms and ends early; w3 asks at 32 ms, and
     * w2 (token 20, never reading it) keeps the lock until its call ends; w3 asks the leader w1
     * to step down at 480 ms, w1 does at 490 ms, w2 leads from 600 ms.
     */
    const asked = (withStepDownRequest = true) => {
      const s = new Scenario();
      for (const w of [1, 2, 3, 4]) s.process(w, 1, 0, 1000).log(w, 1, 1, { ev: 'ready', sessionId: session(w) });
      s.request(2, 1, 1, { what: 'release', at: 12, done: 13, node: node(1), session: session(1), identity: 'w1.1' });
      s.section(1, 1, '10', { want: 5, acquired: 10, node: node(1), session: session(1), watch: true, seen: 14, earlyEnd: 'after-checkpoint', v: 0, write: 20, exit: 21, released: 22, outcome: 'ok' });
      s.request(3, 1, 1, { what: 'release', at: 32, done: 33, node: node(2), session: session(2), identity: 'w2.1' });
      s.section(2, 1, '20', { want: 6, acquired: 30, node: node(2), session: session(2), v: 1, write: 40, exit: 41, released: 42, outcome: 'ok' });
      s.section(3, 1, '30', { want: 7, acquired: 50, node: node(3), session: session(3), v: 2, write: 60, exit: 61, released: 62, outcome: 'ok' });
      if (withStepDownRequest) s.request(3, 1, 2, { what: 'step-down', at: 480, done: 481, node: electionNode(1), session: session(1), identity: 'w1.1' });
      s.stepDown(1, 1, 490, '100', session(1));
      s.leader(1, 1, '100', 5, 500).leader(2, 1, '200', 600, 990);
      s.driverLine(900, { ev: 'phase', name: 'stopping' });
      return s;
    };
    /** w4 (token 40, node 4) holds after w3, asked at 72 ms; `plan` finishes its section. */
    const fourth = (s: Scenario, plan: Partial<SectionPlan>) =>
      s.section(4, 1, '40', { want: 8, acquired: 70, node: node(4), session: session(4), v: 3, ...plan });

    it('passes holders asked (one ends early, one keeps the lock) and a leader that steps down, and counts them', () => {
      const s = asked();
      assert.deepEqual(found(s), {});
      const { figures } = check(s.input());
      assert.deepEqual(figures.releaseRequests, { asked: 2 });
      assert.deepEqual(figures.stepDownRequests, { asked: 1 });
      assert.equal(figures.holdersWatching, 1);
      assert.equal(figures.holdersAsked, 2);
      assert.equal(figures.holdersAskedNotWatching, 1);
      assert.equal(figures.holdersSawRequest, 1);
      assert.deepEqual(figures.earlyEnds, { 'after-checkpoint': 1 });
      assert.equal(figures.stepDowns, 1);
      assert.equal(figures.leaderChangesAfterRequest, 1);
      assert.equal(figures.longestStepDownHandOverMs, 110);
    });

    it('released-on-behalf: a holder asked to let go loses its lock mid-call with its session fine and no fault on it', () => {
      const lost = () => fourth(asked().request(1, 1, 2, { what: 'release', at: 72, done: 73, node: node(4), session: session(4) }), { lost: 75, exit: 76, bodyError: 'LockLostError', outcome: 'LockLostError' });
      assertOnly(lost(), 'released-on-behalf');
      // Its session's trouble, or a fault on its process, explains the loss; another process's session does not.
      assert.deepEqual(found(lost().log(4, 1, 75.1, { ev: 'session', state: 'lost', sessionId: session(4) })), {});
      assert.deepEqual(found(lost().log(4, 1, 74, { ev: 'session', state: 'connected', sessionId: '20000000000004' })), {});
      assert.deepEqual(found(lost().fault('cut-1T', 71, 2071, 4)), {});
      assertOnly(lost().log(3, 1, 75, { ev: 'session', state: 'lost', sessionId: session(3) }), 'released-on-behalf');
      assertOnly(lost().log(4, 1, 600, { ev: 'session', state: 'lost', sessionId: session(4) }), 'released-on-behalf');
      // Reading releaseRequested changes nothing: the holder ends its call itself.
      assertOnly(fourth(asked(), { watch: true, lost: 75, exit: 76, bodyError: 'LockLostError', outcome: 'LockLostError' }), 'released-on-behalf');
    });

    it('released-on-behalf: a holder released while its body still runs', () => {
      assertOnly(fourth(asked(), { write: 80, released: 78, exit: 81, outcome: 'ok' }), 'released-on-behalf');
      // Released after a loss that its session explains: the library deletes a lost lease's node.
      const afterLoss = fourth(asked(), { lost: 75, released: 75.5, exit: 76, bodyError: 'LockLostError', outcome: 'LockLostError' });
      assert.deepEqual(found(afterLoss.log(4, 1, 75, { ev: 'session', state: 'expired', sessionId: session(4) })), {});
    });

    it('spurious-release-request: releaseRequested aborts without a request that named the holder', () => {
      const seen = (s: Scenario) => fourth(s, { watch: true, seen: 75, earlyEnd: 'after-checkpoint', write: 80, exit: 81, released: 82, outcome: 'ok' });
      assert.deepEqual(found(seen(asked().request(1, 1, 2, { what: 'release', at: 72, done: 73, node: node(4), session: session(4) }))), {});
      assertOnly(seen(asked()), 'spurious-release-request');
      // Another node, another session, or a request sent after the abort.
      assertOnly(seen(asked().request(1, 1, 2, { what: 'release', at: 72, done: 73, node: node(3), session: session(4) })), 'spurious-release-request');
      assertOnly(seen(asked().request(1, 1, 2, { what: 'release', at: 72, done: 73, node: node(4), session: session(3) })), 'spurious-release-request');
      assertOnly(seen(asked().request(1, 1, 2, { what: 'release', at: 76, done: 77, node: node(4), session: session(4) })), 'spurious-release-request');
      // A request that threw, or got no reply, may have marked the head: it answers one abort, of a holder that wanted before it ended.
      assert.deepEqual(found(seen(asked().request(1, 1, 2, { what: 'release', at: 72, done: 73, error: 'ZooKeeperError:CONNECTIONLOSS' }))), {});
      assert.deepEqual(found(seen(asked().request(1, 1, 2, { what: 'release', at: 72 }))), {});
      assertOnly(seen(asked().request(1, 1, 2, { what: 'release', at: 2, done: 3, error: 'ZooKeeperError:CONNECTIONLOSS' })), 'spurious-release-request');
      const twice = seen(asked().request(1, 1, 2, { what: 'release', at: 72, done: 73, error: 'ZooKeeperError:CONNECTIONLOSS' }));
      twice.section(5, 1, '50', { want: 9, acquired: 90, node: node(5), session: session(5), watch: true, seen: 95, earlyEnd: 'before-checkpoint', exit: 96, released: 97, outcome: 'ok' });
      assertOnly(twice.process(5, 1, 0, 1000), 'spurious-release-request');
      // A step-down request that threw does not answer a lock's abort.
      assertOnly(seen(asked().request(1, 1, 2, { what: 'step-down', at: 72, done: 73, error: 'ZooKeeperError:CONNECTIONLOSS' })), 'spurious-release-request');
    });

    it('spurious-release-request: a leader steps down without a request that named its session, or a second time on one request', () => {
      assertOnly(asked(false), 'spurious-release-request');
      assertOnly(asked(false).request(3, 1, 2, { what: 'step-down', at: 480, done: 481, node: electionNode(2), session: session(2) }), 'spurious-release-request');
      assertOnly(asked(false).request(3, 1, 2, { what: 'release', at: 480, done: 481, node: electionNode(1), session: session(1) }), 'spurious-release-request');
      assert.deepEqual(found(asked(false).request(3, 1, 2, { what: 'step-down', at: 480, done: 481, error: 'ZooKeeperError:OPERATIONTIMEOUT' })), {});
      // w1 leads again (token 300) and steps down again: the first request's node is gone with the first step-down.
      const again = () => asked().leader(1, 1, '300', 995).stepDown(1, 1, 998, '300', session(1));
      assertOnly(again(), 'spurious-release-request');
      assert.deepEqual(found(again().request(2, 1, 2, { what: 'step-down', at: 996, done: 997, node: electionNode(3), session: session(1) })), {});
    });
  });

  describe('oversize: an oversized checkpoint is refused with ZK_RECORD_TOO_LARGE and costs no session or lease', () => {
    /** w1 (token 10, session ff…01) attempts an oversized checkpoint at 15 ms; the window is a session timeout (2000 ms). */
    const attempt = (result?: { accepted: boolean; code?: string; error?: string }) => {
      const s = new Scenario();
      s.process(1, 1, 0, 5000).process(2, 1, 0, 5000);
      s.log(1, 1, 1, { ev: 'session', state: 'connected', sessionId: 'ff00000000000001' });
      s.section(1, 1, '10', { acquired: 10, v: 0, write: 20, exit: 21, released: 22, outcome: 'ok' });
      s.log(1, 1, 15, { ev: 'oversize', token: '10', bytes: 2 ** 21 });
      if (result) s.log(1, 1, 16, { ev: 'oversize-result', token: '10', ...result });
      s.section(2, 1, '20', { acquired: 30, v: 1, write: 40, exit: 41, released: 42, outcome: 'ok' });
      s.driverLine(4900, { ev: 'phase', name: 'stopping' });
      return s;
    };
    const refused = () => attempt({ accepted: false, code: 'ZK_RECORD_TOO_LARGE', error: 'RecordTooLargeError' });

    it('passes a refusal that costs nothing, and counts it (and the session of server 255)', () => {
      const { figures } = check(refused().input());
      assert.deepEqual(found(refused()), {});
      assert.equal(figures.oversizeAttempts, 1);
      assert.equal(figures.oversizeRefused, 1);
      assert.equal(figures.sessionsOfServer255, 1);
    });

    it('reports an attempt that never settled, was accepted, or failed otherwise', () => {
      assertOnly(attempt(), 'oversize');
      assertOnly(attempt({ accepted: true }), 'oversize');
      assertOnly(attempt({ accepted: false, error: 'ZooKeeperError:CONNECTIONLOSS' }), 'oversize');
    });

    it('reports a session suspended, a new session or a lost lease within a session timeout', () => {
      assertOnly(refused().log(1, 1, 500, { ev: 'session', state: 'suspended', sessionId: 'ff00000000000001' }), 'oversize');
      assertOnly(refused().log(1, 1, 1500, { ev: 'session', state: 'connected', sessionId: '0100000000000002' }), 'oversize');
      assertOnly(refused().log(1, 1, 18, { ev: 'lost', token: '10', reason: 'session' }), 'oversize');
    });

    it('passes a loss after the window, or one that a server fault explains', () => {
      assert.deepEqual(found(refused().log(1, 1, 2100, { ev: 'session', state: 'suspended', sessionId: 'ff00000000000001' })), {});
      assert.deepEqual(found(refused().fault('kill-zk-leader', 400, 600).log(1, 1, 500, { ev: 'session', state: 'suspended', sessionId: 'ff00000000000001' })), {});
    });
  });

  describe('eras: an ensemble restarted with wiped data (tokens restart)', () => {
    /**
     * w1 completes token 10; w2 (token 20) checkpoints 1 and loses its lease while the ensemble is
     * down (1000..9000 ms); the store's new era begins at 5000 ms (unless `newEra` is false); then
     * tokens 4 and 6 of the new era, and leaders 100 (old era) and 3 (new era).
     */
    const wiped = (newEra = true) => {
      const s = new Scenario();
      s.process(1, 1, 0, 20_000).process(2, 1, 0, 20_000);
      s.section(1, 1, '10', { acquired: 10, v: 0, write: 20, exit: 21, released: 22, outcome: 'ok' });
      s.section(2, 1, '20', { acquired: 30, v: 1, exit: 2900, lost: 2900, bodyError: 'LockLostError', outcome: 'LockLostError' });
      s.leader(1, 1, '100', 5, 1500);
      if (newEra) s.newEra(5000);
      s.fault('wipe-ensemble', 1000, 9000);
      s.section(1, 1, '4', { acquired: 10_000, v: 1, write: 10_010, exit: 10_011, released: 10_012, outcome: 'ok' });
      s.section(2, 1, '6', { acquired: 10_100, v: 2, write: 10_110, exit: 10_111, released: 10_112, outcome: 'ok' });
      s.leader(2, 1, '3', 9500, 19_000);
      s.driverLine(19_500, { ev: 'phase', name: 'stopping' });
      return s;
    };

    it('compares tokens within an era only, and counts the section and increment the wipe erased', () => {
      const { figures } = check(wiped().input());
      assert.deepEqual(found(wiped()), {});
      assert.equal(figures.wipes, 1);
      assert.equal(figures.sectionsWiped, 1);
      assert.equal(figures.incrementsLostToWipe, 1);
    });

    it('without the new era, the same logs break token, store and leadership order and lose an increment', () => {
      const kinds = Object.keys(found(wiped(false)));
      for (const kind of ['token-order', 'store-order', 'leader-token-order', 'lost-increment']) assert.ok(kinds.includes(kind), kinds.join());
    });

    it('a token that recurs in a later era names another section: its repair there is no duplicate', () => {
      // Era 0: w1's token 10 is interrupted after its checkpoint and repaired by w2's token 20.
      // Era 1: token 10 again (zxids restart), w1's again, interrupted again; w2's token 30 repairs it.
      // (CI's native chaos run, seed 2100320617: a repair in era 1 was taken for a second repair of
      // the era-0 section with the same token.)
      const s = new Scenario();
      s.process(1, 1, 0, 20_000).process(2, 1, 0, 20_000);
      s.section(1, 1, '10', { acquired: 10, v: 0, exit: 30, lost: 30, bodyError: 'LockLostError', outcome: 'LockLostError' });
      s.section(2, 1, '20', { acquired: 100, v: 1, write: 120, exit: 121, released: 122, outcome: 'ok', repairs: [{ interrupted: '10', checkpoint: 0, repaired: true, at: 105 }] });
      s.newEra(5000);
      s.fault('wipe-ensemble', 1000, 9000);
      s.section(1, 1, '10', { acquired: 10_000, v: 2, exit: 10_030, lost: 10_030, bodyError: 'LockLostError', outcome: 'LockLostError' });
      s.section(2, 1, '30', { acquired: 10_100, v: 3, write: 10_120, exit: 10_121, released: 10_122, outcome: 'ok', repairs: [{ interrupted: '10', checkpoint: 2, repaired: true, at: 10_105 }] });
      s.driverLine(19_500, { ev: 'phase', name: 'stopping' });
      s.end = { finalCounter: 4, orphans: [] };
      assert.deepEqual(found(s), {});
    });

    it('store-order: a token of an earlier era accepted in a later one', () => {
      assertOnly(wiped().storeOp(9600, { w: 2, inc: 1, op: 'read', token: '20', accepted: true }), 'store-order');
    });

    it('the time the wiped ensemble was down does not count as stuck', () => {
      const s = clean();
      s.log(3, 1, 100, { ev: 'want' }).log(3, 1, 100 + 35_000, { ev: 'acquired', token: '40' });
      s.fault('wipe-ensemble', 1000, 11_000);
      assert.equal(found(s).stuck, undefined);
    });
  });
});
