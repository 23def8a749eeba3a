/**
 * The event-loop delay a workload's process saw (issue: "the library never blocks the event loop
 * for more than 5 ms at the 99.9th percentile"), from `perf_hooks.monitorEventLoopDelay`: a 1 ms
 * timer whose lateness is recorded in a histogram. Everything in the process counts, the
 * workload's own bookkeeping too, so the figure is an upper bound on the library's share.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { round3 } from './stats.js';
/** The goal the issue sets for p99.9, in milliseconds. */
export const EVENT_LOOP_P999_GOAL_MS = 5;
/** Starts measuring; `stop()` ends it and summarizes. */
export function watchEventLoop() {
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    return {
        stop() {
            histogram.disable();
            const ms = (ns) => round3(ns / 1e6);
            return {
                samples: histogram.count,
                p50_ms: ms(histogram.percentile(50)),
                p99_ms: ms(histogram.percentile(99)),
                p999_ms: ms(histogram.percentile(99.9)),
                max_ms: ms(histogram.max),
            };
        },
    };
}
//# sourceMappingURL=event-loop.js.map