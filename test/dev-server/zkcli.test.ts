/**
 * The dev server against ZooKeeper's own command-line client, zkCli.sh (Debian package
 * `zookeeper`; the Java client library 3.8 behind it): nodes created, listed, read, changed and
 * deleted, an ephemeral sequential node, and a watch one zkCli session left that fires on another
 * session's change. Skipped, saying why, when zkCli.sh is not installed.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { ExternalProcess } from './external-process.js';

const ZKCLI = process.env.ZOOKEEPER_HOME ? `${process.env.ZOOKEEPER_HOME}/bin/zkCli.sh` : '/usr/share/zookeeper/bin/zkCli.sh';
const MISSING = existsSync(ZKCLI) ? undefined : `zkCli.sh is not installed at ${ZKCLI} (apt-get install zookeeper)`;
/** A JVM's start on a busy machine takes seconds: the bound of one zkCli run. */
const RUN_MS = 90_000;

/** Quicker JVM starts for a short-lived client (no optimizing compiler, serial GC). */
const ENV = { ...process.env, CLIENT_JVMFLAGS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto' };

/**
 * One zkCli session running `commands` from stdin, exiting with `code` (zkCli's is 1 when its last
 * command failed); its output (zkCli prints some answers, e.g. `Created`, on stderr).
 */
async function zkCli(server: DevServer, commands: readonly string[], code = 0): Promise<string> {
  const child = new ExternalProcess(ZKCLI, ['-server', server.connectString], RUN_MS, ENV);
  child.write([...commands, 'quit'].join('\n'));
  child.endInput();
  const run = await child.exited;
  assert.equal(run.code, code, run.stderr);
  return `${run.stdout}\n${run.stderr}`;
}

describe('dev server: zkCli.sh', { skip: MISSING }, () => {
  let server: DevServer;
  const root = `/zkcli-${randomUUID()}`;

  before(async () => {
    server = await DevServer.start({ port: 0 });
  });
  after(async () => {
    await server?.close();
  });

  it("creates, lists, reads, changes and deletes nodes, with ZooKeeper's answers", async () => {
    const out = await zkCli(server, [
      `create ${root} hello`,
      `create -s -e ${root}/n- e`,
      `ls ${root}`,
      `stat ${root}`,
      `set ${root} world`,
      `get ${root}`,
      `delete ${root}`,
      `ls ${root}`,
    ]);
    assert.match(out, new RegExp(`Created ${root}\\n`));
    // The ephemeral sequential node: named with the parent's 10-digit counter.
    assert.match(out, new RegExp(`Created ${root}/n-0000000000\\n`));
    assert.equal(out.match(/\[n-0000000000\]/g)?.length, 2);
    assert.match(out, /numChildren = 1/);
    assert.match(out, /dataLength = 5/);
    assert.match(out, /\nworld\n/);
    // delete of a node with a child: ZooKeeper's NOTEMPTY, as zkCli words it.
    assert.match(out, new RegExp(`Node not empty: ${root}`));
  });

  it("fires a watch that one session left (get -w) on another session's change, once; the ephemeral went with its session", async () => {
    // The first test's session ended with its zkCli: its ephemeral node is gone.
    const watcher = new ExternalProcess(ZKCLI, ['-server', server.connectString], RUN_MS, ENV);
    try {
      watcher.write(`ls ${root}`);
      watcher.write(`get -w ${root}`);
      await watcher.output(/\nworld\n/, RUN_MS);
      assert.match(watcher.stdout, /\[\]\n/);
      const changed = await zkCli(server, [`set ${root} v1`, `get ${root}`]);
      assert.match(changed, /\nv1\n/);
      await watcher.output(new RegExp(`WatchedEvent state:SyncConnected type:NodeDataChanged path:${root}\\n`), RUN_MS);
      // One-shot: the watcher's own later change fires nothing more.
      watcher.write(`set ${root} v2`);
      watcher.write(`delete ${root}`);
      watcher.write(`stat ${root}`);
      watcher.write('quit');
      watcher.endInput();
      const run = await watcher.exited;
      assert.equal(run.stdout.match(/type:NodeDataChanged/g)?.length, 1);
      assert.match(run.stderr, new RegExp(`Node does not exist: ${root}`));
    } finally {
      watcher.endInput();
      await watcher.exited.catch(() => undefined);
    }
  });
});
