/**
 * Shrinks a failing schedule: drops planned faults, one at a time from the last, keeping each
 * removal after which the schedule still breaks the same invariant. The rest of the run (the
 * processes' choices, the network's delays) comes from the same seed, but timings move once a
 * fault is gone, so this is a search for a shorter witness, not a proof of minimality.
 */
import { runSchedule } from './schedule.js';
export async function shrinkSchedule(config, log) {
    const first = await runSchedule(config);
    const rule = first.violations[0]?.rule;
    if (!rule)
        return undefined;
    let kept = config.plan.map((_, i) => i);
    log(`shrinking: ${rule} with ${kept.length} fault(s)`);
    for (let i = kept.length - 1; i >= 0; i--) {
        const candidate = kept.filter((_, j) => j !== i);
        const result = await runSchedule({ ...config, plan: candidate.map((k) => config.plan[k]) });
        if (result.violations.some((v) => v.rule === rule)) {
            kept = candidate;
            log(`  without fault ${i}: still ${rule} (${kept.length} left)`);
        }
    }
    return { config: { ...config, plan: kept.map((k) => config.plan[k]) }, kept };
}
//# sourceMappingURL=shrink.js.map