/**
 * Unit tests of `SessionLossClock` on an injected clock: the simulator's virtual one
 * (`installVirtualRuntime`), so that times are exact and the order of events after a pause is the
 * one a test chooses. Last, the deadline's arithmetic after a plain disconnection.
 *
 * First, the session-loss clock after a pause the ticker saw first. On resume, Node may run the loss
 * clock's ticker before the C client's own check: the ticker sees the stall, finds the deadline
 * it implies not passed yet, and goes on. When the C client then reports the connection dead (it
 * heard nothing during the pause), the disconnection must be dated from the stall, not from
 * "now": the C client did not run during the pause, so its 2/3-timeout rule proves nothing about
 * that time. Found by the simulation (issue 15), where the server expired
 * the session at 8.0 s while the clock only announced `lost` at 8.37 s: two holders for 0.37 s.
 *
 * Run on the simulator's virtual clock: the order of the two events after the pause is exactly
 * the one that matters, which a real SIGSTOP cannot be steered into.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SessionLossClock } from '../../src/zookeeper/session-loss-clock.js';
import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import { installVirtualRuntime } from '../../src/zookeeper/simulated/virtual-runtime.js';

const TIMEOUT_MS = 4000;

/** Runs `scenario` on a virtual clock (see `installVirtualRuntime`), put back afterwards. */
async function onVirtualClock(seed: number, scenario: (scheduler: SimScheduler) => Promise<void>): Promise<void> {
  const scheduler = new SimScheduler(seed);
  const uninstall = installVirtualRuntime(scheduler);
  try {
    await scenario(scheduler);
  } finally {
    uninstall();
  }
}

/** A loss clock connected at time 0 as actor `process`, recording when it announces `lost`. */
function connectedClock(
  scheduler: SimScheduler,
  timeoutMs: number,
  lastContactAt: () => number,
  lastReceiptAt: () => number = lastContactAt,
): { clock: SessionLossClock; lostAt: () => number | undefined } {
  let lostAt: number | undefined;
  const clock = new SessionLossClock({ timeoutMs: () => timeoutMs, lastContactAt, lastReceiptAt, onLost: () => (lostAt ??= scheduler.now) });
  scheduler.schedule(0, () => clock.connected(), 'connected', 'process');
  return { clock, lostAt: () => lostAt };
}

function assertLostBefore(lostAt: number | undefined, serverMayExpireAt: number): void {
  assert.ok(lostAt !== undefined, 'lost was never announced');
  assert.ok(lostAt <= serverMayExpireAt, `lost announced at ${lostAt} ms, after the server may have expired the session (${serverMayExpireAt} ms)`);
}

describe('SessionLossClock after a stall the ticker saw first', () => {
  it('dates a disconnection reported after the stall from the stall: lost before the server can expire the session', () =>
    onVirtualClock(1, async (scheduler) => {
      let lastContactAt = 0;
      const { clock, lostAt } = connectedClock(scheduler, TIMEOUT_MS, () => lastContactAt);
      // The last request the server answered was sent at 3891 ms: it expires the session
      // TIMEOUT_MS after hearing it, at 7891 ms at the earliest.
      scheduler.schedule(3891, () => (lastContactAt = 3891), 'reply', 'process');
      // SIGSTOP at 4071 ms for 3165 ms. The ticker's interval came due during the pause and runs
      // first on resume; the C client's report of the dead connection (queued later) runs after it.
      scheduler.schedule(4071, () => scheduler.pause('process', 3165), 'pause', 'sim');
      scheduler.schedule(5000, () => clock.suspended(), 'C client: connection timed out', 'process');
      await scheduler.run({ untilMs: 10_000 });
      clock.stop();
      assertLostBefore(lostAt(), 3891 + TIMEOUT_MS);
    }));

  it('while still connected, counts the session in doubt once the stall could have cost it, until the C client had its check', () =>
    onVirtualClock(2, async (scheduler) => {
      const { clock } = connectedClock(scheduler, TIMEOUT_MS, () => 3891);
      // Resumed at 7236 ms: the ticker sees the stall, whose deadline (7691 ms) has not passed yet.
      scheduler.schedule(4071, () => scheduler.pause('process', 3165), 'pause', 'sim');
      let inDoubt: boolean | undefined;
      // Past that deadline, before the C client said anything about its connection: the server
      // may expire the session from 7891 ms on, unless the C client pinged it after the resume.
      scheduler.schedule(7900, () => (inDoubt = clock.mayHaveExpired()), 'holder checks its lease', 'process');
      await scheduler.run({ untilMs: 8000 });
      clock.stop();
      assert.equal(inDoubt, true, 'the session counted as certainly alive 4.01 s after the server last heard from it (timeout 4 s), with no sign of life since the pause');
    }));

  it('after a short block, does not take replies read at its end for fresh contact: lost before the server can expire the session', () =>
    onVirtualClock(3, async (scheduler) => {
      const timeoutMs = 2000;
      let lastContactAt = 0;
      const { clock, lostAt } = connectedClock(scheduler, timeoutMs, () => lastContactAt);
      // The last request the server heard was sent at 26770 ms; then the network fell silent.
      scheduler.schedule(26_770, () => (lastContactAt = 26_770), 'reply', 'process');
      // The event loop blocks for 891 ms (shorter than any deadline): the replies read at its end
      // look fresh to the C client, which only reports the connection dead 2/3 of the timeout
      // after them. The ticker sees the block first.
      scheduler.schedule(26_763, () => scheduler.pause('process', 891), 'block', 'sim');
      scheduler.schedule(26_763 + 891 + (2 * timeoutMs) / 3, () => clock.suspended(), 'C client: connection timed out', 'process');
      await scheduler.run({ untilMs: 40_000 });
      clock.stop();
      assertLostBefore(lostAt(), 26_770 + timeoutMs);
    }));

  it('sees a stall shorter than a sixth of the timeout: lost before the server can expire the session', () =>
    onVirtualClock(4, async (scheduler) => {
      // Found by the simulation: a 715 ms block (timeout 4 s) went unseen by a ticker of a sixth of
      // the timeout, then the network fell silent; the C client, reading a reply that had waited
      // through the block, reported the connection dead 2/3 of the timeout after the block's end.
      let lastContactAt = 0;
      let probes = 0;
      let lostAt: number | undefined;
      const clock = new SessionLossClock({
        timeoutMs: () => TIMEOUT_MS,
        lastContactAt: () => lastContactAt,
        lastReceiptAt: () => lastContactAt,
        onLost: () => (lostAt ??= scheduler.now),
        onStall: () => probes++,
      });
      scheduler.schedule(0, () => clock.connected(), 'connected', 'process');
      scheduler.schedule(822, () => (lastContactAt = 822), 'reply', 'process');
      scheduler.schedule(887, () => scheduler.pause('process', 715), 'block', 'sim');
      scheduler.schedule(887 + 715 + (2 * TIMEOUT_MS) / 3, () => clock.suspended(), 'C client: connection timed out', 'process');
      await scheduler.run({ untilMs: 10_000 });
      clock.stop();
      assert.equal(probes, 1, 'one probe asked for proof of contact after the block');
      assertLostBefore(lostAt, 822 + TIMEOUT_MS);
    }));

  it('does not take a watch event for contact: lost before the server can expire the session', () =>
    onVirtualClock(5, async (scheduler) => {
      // Found by the simulation: the last request the server heard was sent at 11415 ms; a watch
      // event (another session's node went) reached the client at 12000 ms, just before the
      // network fell silent, and refreshed the C client's receive clock: it reported the
      // connection dead 2/3 of the timeout after the event, which proves nothing about the server
      // hearing from us (the C client pings a third of the timeout after its last send).
      const timeoutMs = 2000;
      let lastContactAt = 0;
      let lastReceiptAt = 0;
      const { clock, lostAt } = connectedClock(scheduler, timeoutMs, () => lastContactAt, () => lastReceiptAt);
      scheduler.schedule(11_415, () => (lastContactAt = lastReceiptAt = 11_415), 'reply', 'process');
      scheduler.schedule(12_000, () => (lastReceiptAt = 12_000), 'watch event', 'process');
      // The C client's own stamp of that receipt came a moment before our callback saw it.
      scheduler.schedule(12_000 + (2 * timeoutMs) / 3 + 1, () => clock.suspended(), 'C client: connection timed out', 'process');
      await scheduler.run({ untilMs: 20_000 });
      clock.stop();
      assertLostBefore(lostAt(), 11_415 + timeoutMs);
    }));
});

// The deadline itself, without a stall: `lastContact + timeout - margin`, where the last contact
// is the best of the latest answered request and what the C client's 2/3-timeout rule proves.
// Exact times on the virtual clock (timeout 3000 ms, margin 150 ms).
describe('SessionLossClock deadline after a disconnection', () => {
  const timeoutMs = 3000;

  /** Connected at 0, suspended at `suspendAt`: when `lost` came, and whether `mayHaveExpired` said so a moment before. */
  async function lostAfterSuspension(suspendAt: number, lastContactAt: number, lastReceiptAt: number): Promise<{ lostAt: number | undefined; expiredJustBefore: boolean }> {
    let result: { lostAt: number | undefined; expiredJustBefore: boolean } = { lostAt: undefined, expiredJustBefore: false };
    await onVirtualClock(7, async (scheduler) => {
      const { clock, lostAt } = connectedClock(scheduler, timeoutMs, () => lastContactAt, () => lastReceiptAt);
      scheduler.schedule(suspendAt, () => clock.suspended(), 'disconnected', 'process');
      await scheduler.run({ untilMs: suspendAt });
      let sawBefore = false;
      await scheduler.run({ untilMs: 60_000, done: () => lostAt() !== undefined, afterStep: () => void (lostAt() === undefined && (sawBefore ||= clock.mayHaveExpired(scheduler.now))) });
      result = { lostAt: lostAt(), expiredJustBefore: sawBefore };
      clock.stop();
    });
    return result;
  }

  it('dates it from the latest answered request when that is the better bound', async () => {
    // Answered request sent at 1000; the ping rule gives 1500 - 2000 < 1000.
    const { lostAt, expiredJustBefore } = await lostAfterSuspension(1500, 1000, 1000);
    assert.equal(lostAt, 1000 + timeoutMs - 150);
    assert.equal(expiredJustBefore, false, 'mayHaveExpired agreed with the deadline before it');
  });

  it('dates it from the ping rule on an idle session: heard within 2/3 of the timeout before the drop', async () => {
    // Nothing answered since 0 but pings: the C client heard the server within 2000 ms of 10000.
    const { lostAt } = await lostAfterSuspension(10_000, 0, 0);
    assert.equal(lostAt, 10_000 - 2000 + timeoutMs - 150);
  });

  it('moves the bound a third of the timeout earlier when the last thing heard may have been a watch event, not a ping reply', async () => {
    // A watch event arrived at 8500, inside the window: the ping before it, at 7500 at the latest, is the proof.
    const { lostAt } = await lostAfterSuspension(10_000, 0, 8500);
    assert.equal(lostAt, 8500 - 1000 + timeoutMs - 150);
  });
});
