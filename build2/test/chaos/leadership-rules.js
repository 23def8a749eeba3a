import { compareEraTokens, stoppedDuring } from './holds.js';
import { compareTokens } from './recovery-rules.js';
export function checkLeadership(run, violations, figures, at) {
    const name = (leader) => `w${leader.w}.${leader.inc} token ${leader.token} [${at(leader.start)}..${at(leader.end)} ${leader.endKind}]`;
    let open = [];
    let previous;
    const excused = new Set();
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
            if (earlier.w === leader.w && earlier.inc === leader.inc)
                continue; // one process, one value at a time
            const stale = compareEraTokens(earlier, leader) <= 0 ? earlier : leader;
            const newer = stale === earlier ? leader : earlier;
            if (stoppedDuring(run.stops, stale.w, stale.inc, stale.start, newer.start))
                excused.add(stale);
            else
                violations['leader-overlap'].push(`${name(earlier)} and ${name(leader)}`);
        }
        open.push(leader);
    }
    figures.excusedLeaderOverlaps = excused.size;
}
//# sourceMappingURL=leadership-rules.js.map