/**
 * A moving ensemble (issue 32): in some schedules every original member is replaced. One by one,
 * a server with a new id and address joins (a reconfig), then an original member is retired (a
 * reconfig): its clients are dropped and its address refuses them from then on. The originals
 * leave highest id first, so the first to go hosts the leader's role, which moves.
 *
 * All but the last original are replaced while the faults strike, spread over their window. The
 * last one leaves once every live process has been in touch with a member (connected, not paused)
 * for a second, so that it read the membership (its tracker reads it on every connection): from
 * then on, the processes started on the original connect string reach the ensemble only if their
 * session followed `/zookeeper/config` (`EnsembleTracker`). Retiring it while a process is cut
 * off could strand that process with no server it knows of, which no client can get over (it
 * learns the membership only while connected): that would prove nothing.
 *
 * A reconfig the ensemble refuses (a member of the new configuration down or cut off by a fault)
 * is tried again a little later. A reconfig excuses no session's expiry: a client that follows the
 * config has a server to go to at every step.
 */
import type { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import type { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';

const RETRY_MS = 250;
/** How long every process must have been in touch before the last original leaves. */
const IN_TOUCH_MS = 1000;

interface Move {
  readonly at: number;
  readonly change: { joining?: number[]; leaving?: number[] };
}

export interface MovingEnsemble {
  /** Whether every original member was retired. */
  readonly done: () => boolean;
  /** When the last original was retired (undefined before). */
  readonly lastRetiredAt: () => number | undefined;
}

/**
 * Schedules the replacement of every member of `ensemble` over the first `windowMs` ms, the last
 * original retired once each of `actors()` is `inTouch` (see above).
 */
export function moveEnsemble(scheduler: SimScheduler, ensemble: SimulatedEnsemble, windowMs: number, actors: () => readonly string[], inTouch: (actor: string) => boolean): MovingEnsemble {
  const originals = ensemble.members.map((member) => member.id).sort((a, b) => b - a);
  const fresh: number[] = [];
  for (let id = 1; fresh.length < originals.length; id++) if (!originals.includes(id)) fresh.push(id);
  // Joins and retirements alternate, evenly spaced in the window: join, retire, ..., join, retire (the last when all are in touch).
  const gap = windowMs / (2 * originals.length);
  const moves: Move[] = originals.flatMap((original, i) => [
    { at: (2 * i + 1) * gap, change: { joining: [fresh[i]!] } },
    { at: (2 * i + 2) * gap, change: { leaving: [original] } },
  ]);
  const since = new Map<string, number>();
  const everyoneInTouch = () => {
    const now = scheduler.now;
    const present = new Set(actors());
    for (const actor of [...since.keys()]) if (!present.has(actor) || !inTouch(actor)) since.delete(actor);
    for (const actor of present) if (inTouch(actor) && !since.has(actor)) since.set(actor, now);
    return [...present].every((actor) => (since.get(actor) ?? now) <= now - IN_TOUCH_MS);
  };
  let retiredAt: number | undefined;
  const next = (index: number) => {
    const move = moves[index];
    if (!move) {
      retiredAt = scheduler.now;
      return;
    }
    const last = index === moves.length - 1;
    // A move held back by refusals leaves the next one at least half a gap later, not at once.
    scheduler.schedule(Math.max(move.at - scheduler.now, index === 0 ? 0 : gap / 2), function attempt() {
      if ((last && !everyoneInTouch()) || !ensemble.reconfigure(move.change)) {
        scheduler.schedule(last ? 100 : RETRY_MS, attempt, last ? 'last reconfig waits' : 'reconfig again');
        return;
      }
      scheduler.note(`MOVE: ${move.change.joining ? `server ${move.change.joining[0]} joins` : `server ${move.change.leaving![0]} is retired`}`);
      next(index + 1);
    }, 'reconfig');
  };
  next(0);
  return { done: () => retiredAt !== undefined, lastRetiredAt: () => retiredAt };
}
