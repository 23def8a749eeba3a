/**
 * Invariant 1 across OS processes: 4 processes × 100 `@WithLock('counter')` read-increment-write
 * sections on one file, with 0-3 ms sleeps inside. A lost update, an overlapping pair of sections
 * (by the system-wide monotonic clock, or by the O_EXCL marker), or a fencing token that does not
 * increase in grant order fails the test.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Fixture, openSession, queueNodes, sharedConnect, testRoot } from './lock-test-kit.js';
const PROCESSES = 4;
const ITERATIONS = 100;
/** Pairs the enter/exit lines of one worker's log into sections. */
function readSections(file, worker) {
    const sections = [];
    let open;
    for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
        const [kind, at, token] = line.split(' ');
        if (kind === 'enter') {
            assert.equal(open, undefined, `worker ${worker}: enter while a section is open`);
            open = { enter: BigInt(at), token: BigInt(token) };
        }
        else {
            assert.ok(open && open.token === BigInt(token), `worker ${worker}: exit without its enter`);
            sections.push({ worker, enter: open.enter, exit: BigInt(at), token: open.token });
            open = undefined;
        }
    }
    assert.equal(open, undefined, `worker ${worker}: a section never exited`);
    return sections;
}
/** What each worker got done, and who is queued for the lock: for a failure message when a worker hangs. */
async function diagnose(root, sessionIds) {
    const lines = sessionIds.map((sessionId, worker) => {
        const log = fs.readFileSync(path.join(dir, `worker-${worker}.log`), 'utf8').trim().split('\n');
        return `worker ${worker} (session ${sessionId}): ${log.filter((line) => line.startsWith('exit')).length} sections, last: ${log.at(-1)}`;
    });
    const session = await openSession(sharedConnect());
    try {
        const lockDir = `${root}/locks/counter`;
        for (const name of await queueNodes(session, lockDir)) {
            const owner = (await session.exists(`${lockDir}/${name}`))?.ephemeralOwner;
            lines.push(`queued: ${name} (session ${owner}, worker ${sessionIds.indexOf(owner)})`);
        }
    }
    finally {
        session.close();
    }
    return lines.join('\n');
}
let dir;
describe('mutual exclusion across processes', () => {
    const fixtures = [];
    before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-counter-'));
    });
    after(async () => {
        await Promise.all(fixtures.map((fixture) => fixture.kill()));
        fs.rmSync(dir, { recursive: true, force: true });
    });
    it(`${PROCESSES} processes × ${ITERATIONS} locked read-increment-write: no overlap, no lost update, increasing tokens`, async () => {
        const counterFile = path.join(dir, 'counter');
        fs.writeFileSync(counterFile, '0');
        const root = testRoot();
        for (let worker = 0; worker < PROCESSES; worker++) {
            fixtures.push(new Fixture('lock-counter', {
                ZK_CONNECT: sharedConnect(),
                LOCK_ROOT: root,
                WORKER: String(worker),
                ITERATIONS: String(ITERATIONS),
                COUNTER_FILE: counterFile,
                MARKER_FILE: path.join(dir, 'inside'),
                LOG_FILE: path.join(dir, `worker-${worker}.log`),
            }));
        }
        const ready = await Promise.all(fixtures.map((fixture) => fixture.message('ready', 30_000)));
        for (const fixture of fixtures)
            fixture.send({ type: 'go' });
        let done;
        try {
            done = await Promise.all(fixtures.map((fixture) => fixture.message('done', 60_000)));
        }
        catch (error) {
            throw new Error(`${error.message}\n${await diagnose(root, ready.map((message) => message.sessionId))}`, { cause: error });
        }
        await Promise.all(fixtures.map((fixture) => fixture.message('closed', 15_000)));
        const exits = await Promise.all(fixtures.map((fixture) => fixture.exited));
        assert.deepEqual(exits.map((exit) => exit.code), fixtures.map(() => 0), fixtures.map((f) => f.output.join('')).join('\n'));
        assert.deepEqual(done.map((message) => message.overlaps), fixtures.map(() => 0), 'a worker found the marker of another inside');
        assert.equal(fs.readFileSync(counterFile, 'utf8'), String(PROCESSES * ITERATIONS), 'lost updates');
        const sections = fixtures
            .flatMap((_, worker) => readSections(path.join(dir, `worker-${worker}.log`), worker))
            .sort((a, b) => (a.enter < b.enter ? -1 : a.enter > b.enter ? 1 : 0));
        assert.equal(sections.length, PROCESSES * ITERATIONS);
        let overlaps = 0;
        let handoffs = 0;
        for (let i = 1; i < sections.length; i++) {
            const previous = sections[i - 1];
            const current = sections[i];
            if (current.enter <= previous.exit)
                overlaps += 1;
            assert.ok(current.token > previous.token, `token ${current.token} (worker ${current.worker}) granted after ${previous.token} (worker ${previous.worker})`);
            if (current.worker !== previous.worker)
                handoffs += 1;
        }
        assert.equal(overlaps, 0, 'overlapping sections');
        // The lock really was contended: the fair queue hands it from process to process.
        assert.ok(handoffs >= ITERATIONS, `only ${handoffs} hand-offs between processes`);
    });
});
//# sourceMappingURL=mutual-exclusion.test.js.map