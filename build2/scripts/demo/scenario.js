import { seconds } from './narrator.js';
import { now } from './replica.js';
const ACCOUNTS = [
    { account: 'alice', amount: 10 },
    { account: 'bob', amount: 5 },
];
export async function runScenario({ narrator, stream, replicas }) {
    const byName = (name) => replicas.find((r) => r.name === name);
    const say = (event, text) => narrator.at(event.t, event.replica, text);
    const expect = (reply, status, what) => {
        if (reply.status !== status)
            throw new Error(`${what}: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
        return reply.body;
    };
    const leaderAmong = async (among, from, timeoutMs, what) => {
        const names = new Set(among.map((r) => r.name));
        const event = await stream.next('leader', (e) => e.value === true && names.has(e.replica), { from, timeoutMs, what });
        return { event, replica: byName(event.replica) };
    };
    // ── 1. Election ────────────────────────────────────────────────────────────
    narrator.section('1. Three replicas start and elect a leader');
    const started = Promise.all(replicas.map((r) => stream.next('ready', (e) => e.replica === r.name, { from: 0, timeoutMs: 45_000, what: `${r.name} to start (log: ${r.logFile})` })));
    // A replica that dies while starting (no ZooKeeper, a port taken) fails the demo at once.
    const died = new Promise((_, reject) => {
        for (const r of replicas)
            void r.exited.then(({ code, signal }) => reject(new Error(`${r.name} exited (${signal ?? `code ${code}`}) while starting; its log: ${r.logFile}`)));
    });
    died.catch(() => undefined); // later exits are part of the scenario
    const readies = await Promise.race([started, died]);
    const sessionTimeoutMs = Math.max(...readies.map((e) => Number(e.sessionTimeoutMs)));
    const first = await leaderAmong(replicas, 0, 15_000, 'a leader');
    for (const e of [...readies, first.event].sort((a, b) => a.t - b.t)) {
        if (e.ev === 'ready')
            say(e, `up on ${byName(e.replica).url}  (pid ${String(e.pid)}, ZooKeeper session 0x${String(e.sessionId)})`);
        else
            say(e, `${narrator.paint('★ leads', 'green', 'bold')} the election "scheduler" (fencing token ${String(e.token)})`);
    }
    const status = expect(await first.replica.get('/status'), 200, 'GET /status');
    narrator.note(`Queue: ${status.participants.join(' → ')}. Each follower watches only the znode in front of it. ` +
        `The @Cron job ticks every second on every replica, but @LeaderOnly lets it run only on ${first.replica.name}.`);
    // ── 2. Transfers ───────────────────────────────────────────────────────────
    narrator.section('2. Lock hand-offs: 6 transfers at once, 2 accounts, 3 replicas');
    const sent = now();
    narrator.at(sent, undefined, `POST /transfers ${ACCOUNTS.map((a) => `{${a.account} +${a.amount}}`).join(' and ')} to each of the three replicas`);
    await Promise.all(ACCOUNTS.flatMap(({ account, amount }) => replicas.map(async (replica) => {
        const body = expect(await replica.post('/transfers', { account, amount }), 200, `POST /transfers to ${replica.name}`);
        narrator.at(now(), replica.name, transferLine(body));
    })));
    const transfers = stream.all('transfer');
    for (const { account } of ACCOUNTS) {
        const tokens = transfers.filter((e) => e.account === account).sort((a, b) => Number(a.start) - Number(b.start)).map((e) => String(e.token));
        narrator.note(`${account}: lock "account:${account}" granted in turn under tokens ${tokens.join(' < ')}`);
    }
    narrator.note('Each account had one holder at a time, whichever replica took the request, and the two accounts did not wait for each other. ' +
        'Tokens are ZooKeeper transaction ids: they only grow, so the ledger can refuse a write that carries an older one.');
    // ── 3. Batch and crash ─────────────────────────────────────────────────────
    narrator.section(`3. The leader runs a batch, and dies half-way through`);
    const leader = first.replica;
    const follower = replicas.find((r) => r !== leader);
    const fromBatch = stream.events.length;
    const refused = await follower.post('/batches', { batch: 'settle-1' });
    narrator.at(now(), undefined, `POST /batches → ${follower.name}: ${refused.status} ${String(refused.body.message)} (leader: ${String(refused.body.leader)})`);
    expect(refused, 409, `POST /batches to follower ${follower.name}`);
    expect(await leader.post('/batches', { batch: 'settle-1' }), 202, `POST /batches to ${leader.name}`);
    narrator.at(now(), undefined, `POST /batches → ${leader.name}: 202 accepted; its scheduler runs it on the next tick`);
    const batch = await stream.next('batch-started', (e) => e.replica === leader.name, { from: fromBatch, timeoutMs: 5_000, what: `${leader.name} to start the batch` });
    say(batch, `settle-1 started under lock "settlement" (token ${String(batch.token)}), ${String(batch.total)} items`);
    for (let item = 1; item <= 3; item++) {
        const checkpoint = await stream.next('batch-checkpoint', (e) => e.replica === leader.name && e.settled === item, { from: fromBatch, timeoutMs: 5_000, what: `checkpoint ${item}` });
        say(checkpoint, `checkpoint ${item}/${String(checkpoint.total)} written to the lock's ready znode`);
    }
    leader.signal('SIGKILL');
    const fromKill = stream.events.length;
    narrator.at(leader.killedAt, leader.name, `${narrator.paint('✖ SIGKILL', 'red', 'bold')} (pid ${leader.pid}): no goodbye, its session just goes silent`);
    const survivors = replicas.filter((r) => r !== leader);
    const during = expect(await survivors[0].post('/transfers', { account: 'alice', amount: 10 }), 200, 'POST /transfers during the fail-over');
    narrator.at(now(), survivors[0].name, `${transferLine(during)}  (locks need no leader)`);
    // ── 4. Fail-over and repair ────────────────────────────────────────────────
    narrator.section(`4. Fail-over after the session timeout, and the repair`);
    narrator.note(`ZooKeeper only learns of the crash when ${leader.name}'s session times out: ${sessionTimeoutMs} ms without a heartbeat. Until then, nobody leads.`);
    const second = await leaderAmong(survivors, fromKill, sessionTimeoutMs + 15_000, 'a new leader after the crash');
    const leaderRecovery = stream.all('leader-recovery', (e) => e.replica === second.replica.name).at(-1);
    if (leaderRecovery) {
        say(leaderRecovery, `@OnLeaderRecovery: ${String(leaderRecovery.holder)}'s scheduler died while running ${String(leaderRecovery.running)} → queued it again`);
    }
    say(second.event, `${narrator.paint('★ leads', 'green', 'bold')} (token ${String(second.event.token)}), ${seconds(second.event.t - leader.killedAt)} after the crash`);
    const repaired = await stream.next('batch-recovered', (e) => e.replica === second.replica.name, { from: fromKill, timeoutMs: 10_000, what: 'the batch repair' });
    say(repaired, `${narrator.paint('↻ repairSettlement()', 'cyan', 'bold')}: ${String(repaired.holder)} (token ${String(repaired.token)}) left ${String(repaired.batch)} at ${String(repaired.settled)}/${String(repaired.total)}; voided item ${Number(repaired.settled) + 1}`);
    const resumed = await stream.next('batch-started', (e) => e.replica === second.replica.name, { from: fromKill, timeoutMs: 5_000, what: 'the resumed batch' });
    say(resumed, `${String(resumed.batch)} resumes at item ${Number(resumed.from) + 1}/${String(resumed.total)} under token ${String(resumed.token)}`);
    const finished = await stream.next('batch-finished', (e) => e.replica === second.replica.name, { from: fromKill, timeoutMs: 10_000, what: 'the resumed batch to finish' });
    say(finished, `${String(finished.batch)} finished ${narrator.paint('✓', 'green')}`);
    narrator.note('The repair ran once, on the next holder of the lock, before its own run: the dead holder left its checkpoint in the ready znode.');
    // ── 5. Graceful hand-over ──────────────────────────────────────────────────
    narrator.section('5. Graceful shutdown: leadership moves at once');
    const third = survivors.find((r) => r !== second.replica);
    // Stop it between two scheduler ticks: each tick is a leader section, and a section still
    // running when the shutdown begins counts as interrupted (the next leader would repair it).
    const idle = await stream.next('tick', (e) => e.replica === second.replica.name && e.t > finished.t, { from: 0, timeoutMs: 5_000, what: 'a scheduler tick' });
    await sleep(Math.max(0, idle.t + 300 - now()));
    const fromTerm = stream.events.length;
    second.replica.signal('SIGTERM');
    narrator.at(second.replica.terminatedAt, second.replica.name, `${narrator.paint('■ SIGTERM', 'magenta', 'bold')}: app.close() (enableShutdownHooks) resigns before the process exits`);
    const next = await leaderAmong([third], fromTerm, 10_000, `${third.name} to lead after the SIGTERM`);
    say(next.event, `${narrator.paint('★ leads', 'green', 'bold')} (token ${String(next.event.token)}), ${Math.round(next.event.t - second.replica.terminatedAt)} ms after the SIGTERM: no session timeout to wait for`);
    if (!(await second.replica.waitExit(10_000)))
        throw new Error(`${second.replica.name} did not exit within 10 s of SIGTERM`);
    narrator.at(now(), second.replica.name, 'exited');
    expect(await third.post('/batches', { batch: 'settle-2' }), 202, `POST /batches to ${third.name}`);
    narrator.at(now(), undefined, `POST /batches → ${third.name}: 202 accepted`);
    const isSettle2 = (e) => e.replica === third.name && e.batch === 'settle-2';
    const clean = await stream.next('batch-started', isSettle2, { from: fromTerm, timeoutMs: 5_000, what: 'settle-2 to start' });
    say(clean, `settle-2 started under token ${String(clean.token)}: nothing to repair, the last holder finished cleanly`);
    const cleanDone = await stream.next('batch-finished', isSettle2, { from: fromTerm, timeoutMs: 10_000, what: 'settle-2 to finish' });
    say(cleanDone, `settle-2 finished ${narrator.paint('✓', 'green')}`);
    const balances = {};
    for (const { account } of ACCOUNTS)
        balances[account] = Number(expect(await third.get(`/accounts/${account}`), 200, 'GET /accounts').balance);
    return { end: now(), balances, sessionTimeoutMs };
}
function transferLine(body) {
    const sign = Number(body.amount) >= 0 ? '+' : '';
    return `${String(body.account).padEnd(5)} ${sign}${String(body.amount).padEnd(3)} token ${String(body.fencingToken).padEnd(5)} waited ${String(body.waitedMs).padStart(4)} ms  balance ${String(body.balance)}`;
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
//# sourceMappingURL=scenario.js.map