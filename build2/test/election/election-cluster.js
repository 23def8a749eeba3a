/**
 * Runs election participants as separate OS processes (build/test/fixtures/election-node.js),
 * collects their JSON events, and checks leadership intervals across them. Every wait is bounded;
 * every process is SIGKILLed at the end of the test (or of this process) if still alive.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor, withTimeout } from '../support/wait.js';
const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'election-node.js');
export const sharedConnect = () => {
    const connect = process.env.ZK_TEST_CONNECT;
    if (!connect)
        throw new Error('ZK_TEST_CONNECT is not set: run the tests through scripts/run-tests.mjs');
    return connect;
};
export const testRoot = () => `/t-${randomUUID()}`;
/** One participant process. */
export class Participant {
    constructor(name, child) {
        this.name = name;
        this.child = child;
        this.events = [];
        this.stderr = '';
        let pending = '';
        child.stdout.setEncoding('utf8').on('data', (chunk) => {
            pending += chunk;
            const lines = pending.split('\n');
            pending = lines.pop();
            for (const line of lines)
                if (line.trim())
                    this.events.push(JSON.parse(line));
        });
        child.stderr.setEncoding('utf8').on('data', (chunk) => (this.stderr += chunk));
        this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(void (this.exitedWith = { code, signal }))));
    }
    get pid() {
        return this.child.pid;
    }
    get isAlive() {
        return this.exitedWith === undefined;
    }
    /** The `ready` event's session id (hex, as ZooKeeper's logs print it after `0x`). */
    get firstSessionId() {
        return String(this.events.find((e) => e.ev === 'ready').sessionId);
    }
    /** Events named `ev` (and matching `where`), in order. */
    all(ev, where = () => true) {
        return this.events.filter((event) => event.ev === ev && where(event));
    }
    /** The last `leader` value reported (false before any). */
    get isLeader() {
        return this.all('leader').at(-1)?.value ?? false;
    }
    send(command) {
        this.child.stdin.write(`${command}\n`);
    }
    signal(signal) {
        if (!this.isAlive)
            return;
        if (signal === 'SIGKILL')
            this.killedAt ??= Date.now();
        this.child.kill(signal);
    }
    /** Waits for the first event named `ev` (matching `where`) at index >= `from`. */
    async waitFor(ev, { where = () => true, from = 0, timeoutMs = 15_000 } = {}) {
        return waitFor(() => this.events.slice(from).find((event) => event.ev === ev && where(event)), {
            timeoutMs,
            intervalMs: 10,
            message: `${this.name}: event ${ev} (events: ${this.describe()})${this.isAlive ? '' : ` [exited ${JSON.stringify(this.exitedWith)}]`}\n${this.stderr.slice(-3000)}`,
        });
    }
    describe() {
        return this.events
            .filter((e) => e.ev !== 'work')
            .map((e) => `${e.ev}${e.value !== undefined ? `=${String(e.value)}` : ''}${e.state ? `:${String(e.state)}` : ''}`)
            .join(' ');
    }
    /** Graceful stop: `quit` (app.close()), then waits for the exit. */
    async quit(timeoutMs = 15_000) {
        if (!this.isAlive)
            return;
        this.send('quit');
        await waitFor(() => !this.isAlive, { timeoutMs, message: `${this.name} exits after quit` });
    }
    kill() {
        this.signal('SIGKILL');
    }
    get log() {
        return this.stderr;
    }
}
/** The participants of one test; `dispose()` kills whatever is still running. */
export class Cluster {
    constructor(base) {
        this.base = base;
        this.participants = [];
    }
    /** Starts a participant and waits until its app is bootstrapped (it has joined the election). */
    async start(name, overrides = {}) {
        const config = { ...this.base, identity: name, ...overrides };
        const child = spawn(process.execPath, [fixture, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
        const participant = new Participant(name, child);
        this.participants.push(participant);
        await participant.waitFor('ready', { timeoutMs: 20_000 });
        return participant;
    }
    /** Waits until exactly one live participant (of `among`) reports leadership; returns it. */
    async leader(among = this.participants, timeoutMs = 15_000) {
        return waitFor(() => {
            const leaders = among.filter((p) => p.isAlive && p.isLeader);
            return leaders.length === 1 ? leaders[0] : undefined;
        }, { timeoutMs, intervalMs: 10, message: `one leader among ${among.map((p) => `${p.name}[${p.describe()}]`).join(', ')}` });
    }
    async dispose() {
        for (const participant of this.participants)
            participant.kill();
        await withTimeout(Promise.all(this.participants.map((p) => p.exited)), 10_000, 'participants exit after SIGKILL');
    }
}
/**
 * Leadership intervals of a participant from its `leader` events: from each `true` to the next
 * `false` (or `until` when it still leads). With `acting`, an interval ends instead at the last
 * `work` heartbeat before that `false`: what the process did as leader. A SIGKILLed process's
 * last interval ends when it was killed. A process frozen by
 * SIGSTOP can report nothing until it runs again, so that is the measure that matters for it.
 */
export function intervals(participant, until, acting = false) {
    const result = [];
    let start;
    for (const event of participant.events) {
        if (event.ev !== 'leader')
            continue;
        if (event.value === true && start === undefined)
            start = event.t;
        else if (event.value === false && start !== undefined) {
            result.push({ who: participant.name, start, end: acting ? lastWork(participant, start, event.t) : event.t });
            start = undefined;
        }
    }
    if (start !== undefined) {
        const end = Math.min(until, participant.killedAt ?? until);
        result.push({ who: participant.name, start, end: acting ? lastWork(participant, start, end) : end });
    }
    return result;
}
function lastWork(participant, from, to) {
    const works = participant.all('work', (e) => e.t >= from && e.t <= to);
    return works.at(-1)?.t ?? from;
}
/** No two intervals of different participants overlap. Returns how many intervals were compared. */
export function assertNoOverlap(all) {
    const sorted = [...all].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
        const previous = sorted[i - 1];
        const current = sorted[i];
        assert.ok(previous.end <= current.start, `leadership of ${previous.who} [${previous.start}, ${previous.end}] overlaps ${current.who} [${current.start}, ${current.end}] by ${(previous.end - current.start).toFixed(1)} ms`);
    }
    return sorted.length;
}
//# sourceMappingURL=election-cluster.js.map