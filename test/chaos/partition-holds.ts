/**
 * The partition workload's tenures, from the workers' `p-*` lines (partition-workload.ts): one per
 * (partition, era, token), i.e. per grant of a partition's lock that anything was logged of. A
 * tenure's runs are its `@ForEachOwnedPartition` bodies (`p-enter` .. `p-exit`), its recoveries
 * the `p-recovered` lines of its take-over.
 *
 * What a tenure left in its partition's ready znode decides whether its next owner must repair it:
 * - `interrupted`: its last run never ended (killed, or frozen until the end), or threw; or some
 *   later owner repaired it (it was dirty, whatever its lines say);
 * - `unknown`: its last run's body ended cleanly but its tick did not say that every run completed
 *   (the completion write failed or went unanswered, another run of the tick threw, or the process
 *   was killed first); or it ran a repair at take-over and never became owned (its own dirty record
 *   may have been written after the repair, or not);
 * - `clean`: its last run completed, or it became owned and ran none.
 */
import type { WorkerEvent } from './event-log.js';
import { eraToken, type Reconstruction } from './holds.js';

export interface PartitionRun {
  readonly tick: number;
  readonly enterAt: number;
  exitAt?: number;
  error?: string;
  readonly checkpoints: number[];
}

export interface Tenure {
  readonly p: number;
  readonly w: number;
  readonly inc: number;
  readonly token: string;
  readonly era: number;
  /** First `p-owned` value listing it with this token. */
  ownedAt?: number;
  /** The first `p-owned` value after its last listing that no longer lists it (a drain began, or it was lost). */
  droppedAt?: number;
  lostAt?: number;
  /** Until when its process believed it owned the partition (see `ownershipEnd`). */
  end: number;
  readonly runs: PartitionRun[];
  readonly recoveries: { interrupted: string; at: number; repaired: boolean; checkpoint?: number }[];
  /** Ticks of its process that completed every run (`p-tick-done` ok). */
  readonly ticksOk: Set<number>;
  /** What it left in the partition's ready znode (see above). */
  state: 'clean' | 'interrupted' | 'unknown';
}

/** Tenures by partition, each list sorted by (era, token). */
export function reconstructPartitions(run: Reconstruction): Map<number, Tenure[]> {
  const eraAt = (t: number) => run.eraStarts.filter((start) => start <= t).length;
  const tenures = new Map<string, Tenure>();
  const tenure = (event: WorkerEvent, p: number, token: string): Tenure => {
    const key = `${p}:${eraToken(eraAt(event.t), token)}`;
    let found = tenures.get(key);
    if (!found) {
      found = { p, w: event.w, inc: event.inc, token, era: eraAt(event.t), end: Infinity, runs: [], recoveries: [], ticksOk: new Set(), state: 'clean' };
      tenures.set(key, found);
    }
    return found;
  };
  for (const [key, events] of run.byIncarnation) {
    const okTicks = new Set(events.flatMap((event) => (event.ev === 'p-tick-done' && event.ok ? [event.tick] : [])));
    const mine = new Set<Tenure>();
    let listed: Tenure[] = [];
    for (const event of events) {
      switch (event.ev) {
        case 'p-owned': {
          const now = event.partitions.map((p) => tenure(event, p, event.tokens[p]!));
          for (const held of listed) if (!now.includes(held)) held.droppedAt = event.t;
          for (const held of now) {
            held.ownedAt ??= event.t;
            held.droppedAt = undefined; // listed again (it was in doubt, and is not any more)
            mine.add(held);
          }
          listed = now;
          break;
        }
        case 'p-lost':
          tenure(event, event.p, event.token).lostAt ??= event.t;
          break;
        case 'p-enter': {
          const held = tenure(event, event.p, event.token);
          held.runs.push({ tick: event.tick, enterAt: event.t, checkpoints: [] });
          mine.add(held);
          break;
        }
        case 'p-checkpoint':
          tenure(event, event.p, event.token).runs.at(-1)?.checkpoints.push(event.v);
          break;
        case 'p-exit': {
          const last = tenure(event, event.p, event.token).runs.at(-1);
          if (last) Object.assign(last, { exitAt: event.t, ...(event.error !== undefined && { error: event.error }) });
          break;
        }
        case 'p-recovered': {
          const held = tenure(event, event.p, event.token);
          held.recoveries.push({ interrupted: event.interrupted, at: event.t, repaired: event.repaired, checkpoint: event.checkpoint });
          mine.add(held);
          break;
        }
      }
    }
    const death = run.deaths.get(key);
    const endOfLife = death ? death.at : (events.at(-1)?.t ?? 0);
    for (const held of mine) {
      for (const tick of okTicks) held.ticksOk.add(tick);
      held.end = ownershipEnd(held, endOfLife);
    }
  }
  const byPartition = new Map<number, Tenure[]>();
  for (const held of tenures.values()) byPartition.set(held.p, [...(byPartition.get(held.p) ?? []), held]);
  for (const list of byPartition.values()) {
    list.sort((a, b) => (a.era !== b.era ? a.era - b.era : BigInt(a.token) < BigInt(b.token) ? -1 : BigInt(a.token) > BigInt(b.token) ? 1 : 0));
    const repairedByOthers = new Set(list.flatMap((held) => held.recoveries.map((r) => eraToken(held.era, r.interrupted))));
    for (const held of list) held.state = stateOf(held, repairedByOthers.has(eraToken(held.era, held.token)));
  }
  return byPartition;
}

/**
 * Until when a tenure's process believed it owned the partition: its lease's loss; else, once the
 * partition was dropped from `owned$` (a drain), the end of the runs still going (the lock is
 * released after them); else the end of its process (killed: its session outlives it, but it can
 * no longer act).
 */
function ownershipEnd(held: Tenure, endOfLife: number): number {
  const lastRun = held.runs.at(-1);
  const runsEnd = lastRun ? (lastRun.exitAt ?? endOfLife) : 0;
  const released = held.droppedAt === undefined ? endOfLife : Math.max(held.droppedAt, runsEnd);
  return Math.min(held.lostAt ?? Infinity, released, endOfLife);
}

function stateOf(held: Tenure, repaired: boolean): Tenure['state'] {
  if (repaired) return 'interrupted';
  const last = held.runs.at(-1);
  if (!last) return held.ownedAt === undefined && held.recoveries.length > 0 ? 'unknown' : 'clean';
  if (last.exitAt === undefined || last.error !== undefined) return 'interrupted';
  return held.ticksOk.has(last.tick) ? 'clean' : 'unknown';
}

/** Whether the tenure's grant got past its take-over: owned, ran work, or left a dirty record someone repaired. */
export const tookOver = (held: Tenure): boolean => held.ownedAt !== undefined || held.runs.length > 0 || held.state === 'interrupted';
