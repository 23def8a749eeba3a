/**
 * `npm run demo -- --headless` end to end: runs build/scripts/demo.js as a child process (its own
 * throwaway ZooKeeper, three replicas of examples/app, the scripted crash and hand-over), bounded
 * in time, and checks the summary it prints as its last line. The guarantees are re-checked here
 * from the raw intervals and events in that summary, not taken from the demo's own verdict.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
const DEMO = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'demo.js');
const TIME_LIMIT_MS = 85_000;
/** No two intervals overlap (touching ends are fine), and tokens strictly increase with time. */
function assertOneAtATime(what, intervals) {
    const sorted = [...intervals].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
        const [previous, current] = [sorted[i - 1], sorted[i]];
        assert.ok(previous.end <= current.start, `${what}: ${previous.replica} [${previous.start}, ${previous.end}] overlaps ${current.replica} [${current.start}, ${current.end}]`);
        assert.ok(BigInt(current.token) > BigInt(previous.token), `${what}: token ${current.token} after ${previous.token}`);
    }
}
let child;
after(() => {
    // The demo is its own process group (with its ZooKeeper and replicas): nothing outlives the test.
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
        try {
            process.kill(-child.pid, 'SIGKILL');
        }
        catch { /* gone */ }
    }
});
describe('npm run demo (headless)', () => {
    it('elects one leader at a time, repairs the crashed batch once, keeps locks exclusive, and exits 0', { timeout: 90_000 }, async () => {
        const env = { ...process.env, NO_COLOR: '1' };
        delete env.ZK_CONNECT; // the demo as a newcomer runs it: with its own throwaway ZooKeeper
        child = spawn(process.execPath, [DEMO, '--headless'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
        let timer;
        const code = await new Promise((resolve) => {
            child.once('exit', (exitCode, signal) => resolve(exitCode ?? String(signal)));
            timer = setTimeout(() => resolve('timeout'), TIME_LIMIT_MS);
        });
        clearTimeout(timer);
        const output = `--- stdout\n${stdout.slice(-6000)}\n--- stderr\n${stderr.slice(-3000)}`;
        assert.equal(code, 0, `the demo exits 0 within ${TIME_LIMIT_MS / 1000} s\n${output}`);
        // It stopped everything it started: its ZooKeeper and replicas were in its process group.
        assert.throws(() => process.kill(-child.pid, 0), { code: 'ESRCH' }, 'a process of the demo outlived it');
        const last = stdout.trimEnd().split('\n').at(-1);
        const summary = JSON.parse(last);
        assert.equal(summary.demo, 'nestjs-zk-lock');
        assert.deepEqual(Object.entries(summary.checks).filter(([, ok]) => !ok), [], output);
        assert.equal(summary.ok, true);
        // One leader at a time, increasing tokens; each of the three replicas led (first, after the crash, after the SIGTERM).
        assertOneAtATime('leadership', summary.leaders);
        assert.equal(new Set(summary.leaders.map((l) => l.replica)).size, 3, JSON.stringify(summary.leaders));
        const ledAt = (replica, t) => summary.leaders.find((l) => l.replica === replica && l.start <= t && t <= l.end);
        // The SIGKILLed replica was the leader and held the batch lock, mid-batch.
        assert.equal(summary.kills.length, 1);
        const kill = summary.kills[0];
        assert.ok(ledAt(kill.replica, kill.t), `${kill.replica} led when it was killed`);
        const crashed = summary.batches.filter((b) => b.crashed);
        assert.equal(crashed.length, 1, JSON.stringify(summary.batches));
        assert.equal(crashed[0].replica, kill.replica);
        assert.ok(crashed[0].settled > 0 && crashed[0].settled < crashed[0].total, 'killed half-way');
        // The batch recovery ran exactly once, after the SIGKILL, on another replica, with the dead holder's checkpoint.
        assert.equal(summary.recoveries.length, 1, JSON.stringify(summary.recoveries));
        const repair = summary.recoveries[0];
        assert.ok(repair.t > kill.t);
        assert.equal(repair.holder, kill.replica);
        assert.notEqual(repair.replica, kill.replica);
        assert.equal(repair.token, crashed[0].token);
        // The checkpoint it got is the last one the dead holder reported (or one it wrote as it died).
        assert.ok(repair.settled === crashed[0].settled || repair.settled === crashed[0].settled + 1, `repair saw ${repair.settled}, last reported ${crashed[0].settled}`);
        const resumed = summary.batches.find((b) => b.replica === repair.replica && b.batch === crashed[0].batch && b.finished);
        assert.ok(resumed, 'the repairing replica finished the interrupted batch');
        assert.equal(resumed.from, repair.settled);
        assert.equal(summary.leaderRecoveries.length, 1, JSON.stringify(summary.leaderRecoveries));
        // The batch lock and each account lock: one holder at a time, tokens increasing.
        assert.equal(summary.batches.length, 3, JSON.stringify(summary.batches));
        assertOneAtATime('lock "settlement"', summary.batches);
        const accounts = new Set(summary.accounts.map((a) => a.account));
        assert.deepEqual([...accounts].sort(), ['alice', 'bob']);
        for (const account of accounts)
            assertOneAtATime(`lock "account:${account}"`, summary.accounts.filter((a) => a.account === account));
        assert.equal(summary.accounts.length, 7);
        for (const [account, { expected, actual }] of Object.entries(summary.balances))
            assert.equal(actual, expected, `balance of ${account}`);
        // Graceful hand-over: the first SIGTERM stopped the leader that repaired the batch, and another took over after it.
        const handOver = [...summary.terminations].sort((a, b) => a.t - b.t)[0];
        assert.equal(handOver.replica, repair.replica);
        assert.ok(ledAt(handOver.replica, handOver.t), `${handOver.replica} led when it got SIGTERM`);
        assert.ok(summary.leaders.some((l) => l.replica !== handOver.replica && l.replica !== kill.replica && l.start >= handOver.t), 'the third replica led after the SIGTERM');
    });
});
//# sourceMappingURL=demo.test.js.map