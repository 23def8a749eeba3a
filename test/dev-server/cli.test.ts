/**
 * `nestjs-zk-lock dev-server` as a user runs it (the built CLI in a child process): it prints its
 * connect string on a line of its own and what it is not, serves clients, stops cleanly on
 * SIGINT and SIGTERM (exit 0); a port in use and bad flags fail with a message naming them. With --data, the
 * persistent nodes outlive a restart (data, sequence counters), the ephemeral ones do not, and
 * zxids run on past what clients saw.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { openSessionHandle } from '../../src/zookeeper/open-session-handle.js';
import type { SessionHandle } from '../../src/zookeeper/session-handle.js';
import { runCli, startCli, type CliProcess } from '../cli/cli-runner.js';
import { waitFor, withTimeout } from '../support/wait.js';

const WAIT_MS = 10_000;

/** A session of our client to `connectString`, connected. */
async function connectTo(connectString: string): Promise<SessionHandle> {
  let connected!: () => void;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  const zk = openSessionHandle({ connectString, sessionTimeoutMs: 6000, driver: 'typescript' }, { onConnected: () => connected(), onConnecting: () => undefined, onClosed: () => undefined });
  await withTimeout(ready, WAIT_MS, `no session with ${connectString}`);
  return zk;
}

/** The connect string the running CLI printed on a line of its own. */
async function connectStringOf(cli: CliProcess): Promise<string> {
  return waitFor(() => /^(127\.0\.0\.1:\d+)$/m.exec(cli.stdout)?.[1], { timeoutMs: WAIT_MS, message: `a connect string on stdout (stderr: ${cli.stderr})` });
}

describe('nestjs-zk-lock dev-server', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dev-server-cli-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints its connect string and what it is not, serves a client, stops on SIGINT with exit 0', async () => {
    const cli = startCli(['dev-server', '--port', '0'], 30_000);
    const connectString = await connectStringOf(cli);
    assert.match(cli.stderr, /DEVELOPMENT ZooKeeper/);
    assert.match(cli.stderr, /One member \(no replication/);
    assert.match(cli.stderr, /UNIMPLEMENTED \(-6\)/);
    const zk = await connectTo(connectString);
    const root = `/cli-${randomUUID()}`;
    assert.equal(await zk.create(root, Buffer.from('x')), root);
    assert.deepEqual((await zk.getData(root)).data, Buffer.from('x'));
    await zk.close();
    cli.interrupt();
    const run = await cli.exited;
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /stopped/);
  });

  it('exits 1 naming the port when the port is in use', async () => {
    const taken = await DevServer.start({ port: 0 });
    try {
      const run = await runCli(['dev-server', '--port', String(taken.port)], 30_000);
      assert.equal(run.code, 1);
      assert.match(run.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${taken.port}: port ${taken.port} is in use`));
      assert.equal(run.stdout, '');
    } finally {
      await taken.close();
    }
  });

  it('exits 1 naming the file when --data is not a file it can load', async () => {
    const file = path.join(dir, 'orphan.json');
    writeFileSync(file, JSON.stringify({ format: 'nestjs-zk-lock dev-server znodes 1', lastZxid: '0x100000005', nodes: [{ path: '/a/b', data: '', acl: [], container: false, sequence: 0 }] }));
    const orphan = await runCli(['dev-server', '--port', '0', '--data', file], 30_000);
    assert.equal(orphan.code, 1);
    assert.match(orphan.stderr, new RegExp(`data file ${file} cannot be loaded: node #0 \\(/a/b\\) is a duplicate, comes before its parent`));
    writeFileSync(file, '{"nodes": [');
    const garbled = await runCli(['dev-server', '--port', '0', '--data', file], 30_000);
    assert.equal(garbled.code, 1);
    assert.match(garbled.stderr, /cannot be loaded: not JSON/);
    assert.equal(garbled.stdout, '');
  });

  it('exits 2 on bad flags, naming them', async () => {
    const cases: [string[], RegExp][] = [
      [['dev-server', '--port', 'http'], /--port: expected a port from 0 to 65535, got "http"/],
      [['dev-server', '--port', '70000'], /--port: expected a port/],
      [['dev-server', '--connect', '127.0.0.1:2181'], /--connect does not apply to dev-server/],
      [['dev-server', 'extra'], /unexpected argument "extra"/],
      [['dev-server', '--bogus'], /Unknown option '--bogus'/],
      [['inspect', '--connect', '127.0.0.1:2181', '--port', '1'], /--port only applies to dev-server/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args, 30_000);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
  });

  it('with --data, keeps persistent nodes (data, sequence counters) across a restart, not ephemeral ones; zxids run on', async () => {
    const file = path.join(dir, 'tree.json');
    const root = `/data-${randomUUID()}`;
    const first = startCli(['dev-server', '--port', '0', '--data', file], 30_000);
    const zk = await connectTo(await connectStringOf(first));
    await zk.create(root, Buffer.from('kept'));
    await zk.create(`${root}/container`, null, 'container');
    const seq = await zk.create(`${root}/s-`, Buffer.from('1'), 'persistent_sequential');
    await zk.create(`${root}/gone`, null, 'ephemeral');
    const lastZxid = (await zk.exists(`${root}/gone`))!.czxid;
    // Written on change, before any exit.
    await waitFor(() => existsSync(file) && readFileSync(file, 'utf8').includes(`${root}/s-0000000001`), { timeoutMs: WAIT_MS, message: 'the data file written after the changes' });
    await zk.close();
    first.terminate();
    const stopped = await first.exited;
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stderr, /stopped/);
    assert.ok(existsSync(file));
    assert.doesNotMatch(readFileSync(file, 'utf8'), /gone/);

    const second = startCli(['dev-server', '--port', '0', '--data', file], 30_000);
    let again: SessionHandle | undefined;
    try {
      again = await connectTo(await connectStringOf(second));
      assert.deepEqual((await again.getData(root)).data, Buffer.from('kept'));
      assert.deepEqual((await again.getChildren(root)).children.sort(), ['container', path.basename(seq)]);
      // The next sequential child continues the root's counter (3 creates so far: container, s-1, gone), as on a real server.
      assert.equal(path.basename(seq), 's-0000000001');
      assert.equal(await again.create(`${root}/s-`, null, 'persistent_sequential'), `${root}/s-0000000003`);
      assert.ok((await again.exists(`${root}/s-0000000003`))!.czxid > lastZxid, 'a later epoch: zxids past what clients saw');
    } finally {
      await again?.close();
      second.interrupt();
      assert.equal((await second.exited).code, 0);
    }
  });
});
