/**
 * Leadership, from every process's `isLeader$` values: never two leaders at once, and leadership
 * tokens only grow within an era (they restart after a wipe). The one excuse is a frozen older
 * leader (SIGSTOPped, or its event loop blocked): a frozen process cannot say
 * anything, so it reports false only once it runs again, after its successor took over (that
 * successor's fencing is what protects the work). A leader cut off from ZooKeeper has no excuse:
 * invariant 2 says it reports false before the server can expire its session and anyone else can
 * lead.
 */
import type { CheckFigures, Violations } from './checker.js';
import { compareEraTokens, stoppedDuring, type LeaderInterval, type Reconstruction } from './holds.js';
import { compareTokens } from './recovery-rules.js';

export function checkLeadership(run: Reconstruction, violations: Violations, figures: CheckFigures, at: (t: number) => string): void {
  const name = (leader: LeaderInterval) => `w${leader.w}.${leader.inc} token ${leader.token} [${at(leader.start)}..${at(leader.end)} ${leader.endKind}]`;
  let open: LeaderInterval[] = [];
  let previous: LeaderInterval | undefined;
  const excused = new Set<LeaderInterval>();
  for (const leader of run.leaders) {
    if (previous && previous.era === leader.era) {
      const order = compareTokens(leader.token, previous.token);
      const sameProcess = leader.w === previous.w && leader.inc === previous.inc;
      // The same process may report the same term again (after reconnecting); anyone else needs a newer one.
      if (order < 0 || (order === 0 && !sameProcess)) {
        violations['leader-token-order'].push(`${name(leader)} after ${name(previous)}`);
      }
    }
    previous = leader;
    open = open.filter((earlier) => earlier.end > leader.start);
    for (const earlier of open) {
      if (earlier.w === leader.w && earlier.inc === leader.inc) continue; // one process, one value at a time
      const stale = compareEraTokens(earlier, leader) <= 0 ? earlier : leader;
      const newer = stale === earlier ? leader : earlier;
      if (stoppedDuring(run.stops, stale.w, stale.inc, stale.start, newer.start)) excused.add(stale);
      else violations['leader-overlap'].push(`${name(earlier)} and ${name(leader)}`);
    }
    open.push(leader);
  }
  figures.excusedLeaderOverlaps = excused.size;
}
