/**
 * The demo's verdict: what happened (leaders over time, batch runs, recoveries) and whether the
 * guarantees held (one leader at a time, one holder per lock, increasing tokens, the crash
 * repaired exactly once, no lost update). Printed for people, and as one JSON line with
 * `--headless` for test/demo/demo.test.ts.
 */
import { accountHolds, batchHolds, groupBy, increasing, leadership, maxConcurrent, recoveries, } from './analysis.js';
import { seconds } from './narrator.js';
export function summarize(record) {
    const leaders = leadership(record);
    const batches = batchHolds(record);
    const accounts = accountHolds(record);
    const repairs = recoveries(record, 'batch-recovered');
    const kills = record.replicas.filter((r) => r.killedAt !== undefined).map((r) => ({ replica: r.name, t: r.killedAt }));
    const terminations = record.replicas.filter((r) => r.terminatedAt !== undefined).map((r) => ({ replica: r.name, t: r.terminatedAt }));
    const byAccount = groupBy(accounts, (h) => h.account);
    const perAccount = Object.fromEntries([...byAccount].map(([account, holds]) => [account, maxConcurrent(holds)]));
    const ticks = record.events.filter((e) => e.ev === 'tick');
    const offLeader = ticks.filter((tick) => !leaders.some((h) => h.replica === tick.replica && h.start <= tick.t && tick.t <= h.end)).length;
    const balances = Object.fromEntries([...byAccount].map(([account]) => {
        const expected = record.events.filter((e) => e.ev === 'transfer' && e.account === account).reduce((sum, e) => sum + Number(e.amount), 0);
        return [account, { expected, actual: record.balances[account] ?? Number.NaN }];
    }));
    const nextLeaderAfter = (t) => {
        const next = t === undefined ? undefined : leaders.find((h) => h.start > t);
        return next && t !== undefined ? next.start - t : null;
    };
    // The first SIGKILL / SIGTERM of a replica while it led, and how long until the next one led.
    const ofLeader = (stops) => stops.sort((a, b) => a.t - b.t).find((k) => leaders.some((h) => h.replica === k.replica && h.start <= k.t && k.t <= h.end));
    const killedLeader = ofLeader(kills);
    const terminatedLeader = ofLeader(terminations);
    const checks = {
        oneLeaderAtATime: maxConcurrent(leaders) <= 1,
        batchLockExclusive: maxConcurrent(batches) <= 1,
        accountLocksExclusive: Object.values(perAccount).every((n) => n <= 1),
        tokensIncreasing: increasing(leaders) && increasing(batches) && [...byAccount.values()].every(increasing),
        crashRepairedOnce: repairs.length === 1 && kills.some((k) => k.replica === repairs[0].holder && k.t < repairs[0].t && repairs[0].replica !== k.replica),
        ticksOnLeaderOnly: ticks.length > 0 && offLeader === 0,
        noLostUpdate: Object.values(balances).every((b) => b.expected === b.actual),
    };
    return {
        demo: 'nestjs-zk-lock',
        ok: Object.values(checks).every(Boolean),
        checks,
        leaders,
        batches,
        accounts,
        recoveries: repairs,
        leaderRecoveries: recoveries(record, 'leader-recovery'),
        kills,
        terminations,
        failover: { afterCrashMs: nextLeaderAfter(killedLeader?.t), afterSigtermMs: nextLeaderAfter(terminatedLeader?.t) },
        maxConcurrent: { leaders: maxConcurrent(leaders), settlement: maxConcurrent(batches), perAccount },
        ticks: { total: ticks.length, offLeader },
        balances,
    };
}
export function printSummary(narrator, summary, origin) {
    const at = (t) => `${((t - origin) / 1000).toFixed(1)}s`;
    const mark = (ok) => (ok ? narrator.paint('✓', 'green') : narrator.paint('✗ FAILED', 'red', 'bold'));
    const rows = (label, lines) => lines.forEach((text, i) => narrator.line(`  ${narrator.paint((i === 0 ? label : '').padEnd(14), 'bold')}${text}`));
    const tokens = (holds) => holds.map((h) => h.token).join(' < ');
    const how = (replica) => summary.kills.some((k) => k.replica === replica) ? 'SIGKILL' : summary.terminations.some((k) => k.replica === replica) ? 'SIGTERM' : '';
    rows('Leaders', summary.leaders.map((h) => `${h.replica}  ${`${at(h.start)} → ${at(h.end)}`.padEnd(15)}  token ${h.token.padEnd(6)} ${narrator.paint(`until ${how(h.replica) || 'the end'}`, 'dim')}`));
    const { afterCrashMs, afterSigtermMs } = summary.failover;
    rows('Fail-over', [`${afterCrashMs === null ? '-' : seconds(afterCrashMs)} after the SIGKILL (session timeout), ${afterSigtermMs === null ? '-' : `${Math.round(afterSigtermMs)} ms`} after the SIGTERM`]);
    rows('Batch runs', summary.batches.map((b) => {
        const items = `items ${b.from + 1}–${b.settled} of ${b.total}`;
        const end = b.finished ? 'finished' : b.crashed ? 'killed' : 'stopped';
        return `${b.batch}  ${b.replica}  ${items}, ${end}${b.from > 0 ? ' (after the repair)' : ''}  ${narrator.paint(`token ${b.token}`, 'dim')}`;
    }));
    const repairs = summary.recoveries.map((r) => `${r.replica} repaired ${r.holder}'s ${r.batch} from its checkpoint (${r.settled} done, token ${r.token})`);
    rows('Recoveries', [`${summary.recoveries.length} batch repair${summary.recoveries.length === 1 ? '' : 's'}: ${repairs.join('; ') || 'none'}  ${mark(summary.checks.crashRepairedOnce)}`]);
    const leaderRecoveries = summary.leaderRecoveries.map((r) => `${r.replica} took over ${r.holder}'s interrupted scheduler (running ${r.batch ?? 'nothing'})`);
    rows('', [`${summary.leaderRecoveries.length} @OnLeaderRecovery: ${leaderRecoveries.join('; ') || 'none'}`]);
    const accounts = Object.entries(summary.maxConcurrent.perAccount).map(([a, n]) => `account:${a} ${n}`).join(', ');
    const exclusive = summary.checks.oneLeaderAtATime && summary.checks.batchLockExclusive && summary.checks.accountLocksExclusive;
    rows('Max at once', [`leaders ${summary.maxConcurrent.leaders}, settlement holders ${summary.maxConcurrent.settlement}, ${accounts}  ${mark(exclusive)}`]);
    const sequences = [
        ['leaders', tokens(summary.leaders)],
        ['settlement', tokens(summary.batches)],
        ...[...groupBy(summary.accounts, (h) => h.account)].map(([account, holds]) => [`account:${account}`, tokens(holds)]),
    ];
    const width = Math.max(...sequences.map(([name]) => name.length)) + 2;
    rows('Tokens', [
        `monotonic: ${summary.checks.tokensIncreasing ? 'yes' : 'NO'}  ${mark(summary.checks.tokensIncreasing)}`,
        ...sequences.map(([name, list]) => narrator.paint(`${name.padEnd(width)}${list}`, 'dim')),
    ]);
    const balances = Object.entries(summary.balances).map(([a, b]) => `${a} ${b.actual} (transfers add up to ${b.expected})`).join(', ');
    rows('Ledger', [`${summary.accounts.length} transfers; ${balances}  ${mark(summary.checks.noLostUpdate)}`]);
    rows('Scheduler', [`${summary.ticks.total} ticks, ${summary.ticks.offLeader} of them outside the leader  ${mark(summary.checks.ticksOnLeaderOnly)}`]);
    narrator.line();
    narrator.line(summary.ok ? narrator.paint('  All guarantees held.', 'green', 'bold') : narrator.paint('  Some guarantee did not hold: see ✗ above.', 'red', 'bold'));
}
//# sourceMappingURL=summary.js.map