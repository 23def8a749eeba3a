/**
 * `nestjs-zk-lock release <lock>` and `nestjs-zk-lock step-down <election>`, run as child
 * processes from build/src/cli/main.js against the shared server: the holder's `releaseRequested`
 * aborts and the command says whom it asked (text and JSON); the leader steps down and the next
 * participant leads; nobody to ask exits 3; bad usage exits 2.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import type { Inspection } from '../../src/cli/inspect.js';
import type { RequestOutcome } from '../../src/cli/request.js';
import { ReleaseRequestedError } from '../../src/errors/release-requested.error.js';
import { LeaderElection } from '../../src/recipes/election/leader-election.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { randomRoot, SessionPool, sharedConnectString } from '../fixtures/session-helpers.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { runCli } from './cli-runner.js';

describe('nestjs-zk-lock release / step-down', () => {
  const pool = new SessionPool();
  const root = randomRoot();
  const elections: LeaderElection[] = [];
  after(async () => {
    await Promise.allSettled(elections.map((election) => withTimeout(election.close(), 5000, 'election close')));
    pool.closeAll();
  });
  const connect = () => ['--connect', sharedConnectString(), '--root', root];

  it('release asks the holder, which sees it on releaseRequested; it prints whom it asked', async () => {
    const session = await pool.open({ sessionTimeoutMs: 4000 });
    const lease = await new LockClient(session, { root, identity: 'billing-a:101' }).acquire('invoice:42');
    const requested = lease.releaseRequested;
    const run = await runCli(['release', ...connect(), 'invoice:42']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      `Asked billing-a:101 (session 0x${session.sessionId}) to release lock invoice:42; node ${lease.path}.\n`,
    );
    if (!requested.aborted) await withTimeout(once(requested, 'abort'), 5000, 'releaseRequested aborted');
    assert.ok(requested.reason instanceof ReleaseRequestedError);
    assert.equal(lease.isHeld, true, 'the CLI released nothing');

    const again = await runCli(['release', ...connect(), '--json', 'invoice:42']);
    assert.equal(again.code, 0, again.stderr);
    const outcome = JSON.parse(again.stdout) as RequestOutcome;
    assert.deepEqual(outcome, {
      version: 1,
      command: 'release',
      name: 'invoice:42',
      requested: true,
      dir: `${root}/locks/invoice:42`,
      node: lease.path,
      identity: 'billing-a:101',
      sessionId: session.sessionId,
      repeated: true,
    });
    // The inspector shows the request on the holder.
    const inspection = JSON.parse((await runCli(['inspect', ...connect(), '--json', 'invoice:42'])).stdout) as Inspection;
    assert.equal(inspection.locks[0]!.holder!.releaseRequested, true);
    assert.match((await runCli(['inspect', ...connect(), 'invoice:42'])).stdout, /invoice:42: held by billing-a:101, 0 waiters, release requested/);
    await lease.release();
  });

  it('step-down asks the leader, which steps down: the next participant leads', async () => {
    const [first, second] = await Promise.all([pool.open({ sessionTimeoutMs: 4000 }), pool.open({ sessionTimeoutMs: 4000 })]);
    const a = new LeaderElection(first, { root, name: 'scheduler', identity: 'sched-1:201', drainTimeoutMs: 1000 });
    const b = new LeaderElection(second, { root, name: 'scheduler', identity: 'sched-2:202', drainTimeoutMs: 1000 });
    elections.push(a, b);
    a.join();
    await waitFor(() => a.isLeader, { message: 'A leads' });
    b.join();
    await waitFor(async () => (await a.participants()).length === 2, { message: 'B queued' });
    const run = await runCli(['step-down', ...connect(), 'scheduler']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^Asked sched-1:201 \\(session 0x${first.sessionId}\\) to step down as leader of election scheduler; node ${root}/elections/scheduler/_c_.*-n-\\d{10}\\.\\n$`));
    await waitFor(() => b.isLeader, { message: 'B leads' });
    assert.equal(a.isLeader, false);
    await waitFor(async () => (await b.participants()).join() === 'sched-2:202,sched-1:201', { message: 'A queued again at the back' });
  });

  it('exits 3 when nobody holds the lock or takes part in the election: nobody was asked', async () => {
    const release = await runCli(['release', ...connect(), 'free-lock']);
    assert.equal(release.code, 3, release.stderr);
    assert.equal(release.stdout, 'Nobody holds lock free-lock: nobody was asked.\n');
    const stepDown = await runCli(['step-down', ...connect(), '--json', 'empty']);
    assert.equal(stepDown.code, 3, stepDown.stderr);
    assert.deepEqual(JSON.parse(stepDown.stdout), { version: 1, command: 'step-down', name: 'empty', requested: false, dir: `${root}/elections/empty`, reason: 'free' });
  });

  it('exits 2 on bad usage, naming the problem', async () => {
    const cases: [string[], RegExp][] = [
      [['release', ...connect()], /release needs the name of the lock/],
      [['step-down', ...connect()], /step-down needs the name of the election/],
      [['release', ...connect(), 'a', 'b'], /unexpected argument "b" \(release takes one lock name\)/],
      [['release', ...connect(), 'a/b'], /name "a\/b": must not contain "\/"/],
      [['release', ...connect(), '--watch', 'x'], /--watch and --interval only apply to inspect/],
      [['step-down', 'x'], /--connect is required/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
    }
    const help = await runCli(['--help']);
    assert.match(help.stdout, /nestjs-zk-lock release --connect <hosts> \[options\] <lock>/);
    assert.match(help.stdout, /3 \(release, step-down, hand-over\)\s+nobody held the lock/);
  });
});
