/**
 * The dev server against kazoo (Debian's python3-kazoo, a pure-Python client): a script
 * (kazoo_scenario.py) takes a kazoo Lock from two clients in turn, runs an Election with a
 * hand-over, creates an ephemeral sequential node, sees a watch fire when another session ends,
 * and commits a transaction (multi) and one that fails as a whole. Skipped, saying why, when Debian's python3 has no kazoo.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { runProcess, SCENARIO_DIR } from './external-process.js';

/** Debian's interpreter, where python3-kazoo installs (a python3 earlier on PATH, e.g. pyenv's, would not see it). */
const PYTHON = '/usr/bin/python3';
const RUN_MS = 60_000;

function kazooMissing(): string | undefined {
  try {
    execFileSync(PYTHON, ['-c', 'import kazoo'], { stdio: 'ignore', timeout: 20_000 });
    return undefined;
  } catch {
    return `kazoo is not installed for ${PYTHON} (apt-get install python3-kazoo)`;
  }
}

describe('dev server: kazoo', { skip: kazooMissing() }, () => {
  let server: DevServer;

  before(async () => {
    server = await DevServer.start({ port: 0 });
  });
  after(async () => {
    await server?.close();
  });

  it('Lock from two clients in turn, an Election hand-over, an ephemeral sequential node, a watch, transactions', async () => {
    const root = `/kazoo-${randomUUID()}`;
    const run = await runProcess(PYTHON, [path.join(SCENARIO_DIR, 'kazoo_scenario.py'), server.connectString, root], RUN_MS);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.deepEqual(run.stdout.trim().split('\n'), [
      'connected 2',
      'lock a holds',
      // b's non-blocking attempt removed its node again: a alone contends.
      'lock contenders a',
      'lock a released',
      'lock b holds',
      'lock nodes left 0',
      'election contenders a,b',
      'election led a,b',
      // The suffix counts every child the root ever got: the lock's and the election's directories were 0 and 1.
      'ephemeral sequential eph-0000000002',
      'watch DELETED mine-0000000003',
      // create answers its path, setData its stat, check true.
      'transaction str,ZnodeStat,bool',
      'failed transaction RolledBackError,BadVersionError,RuntimeInconsistency',
      'after it tx=2 tx2=None',
      'done',
    ]);
    assert.deepEqual(server.liveSessions(), []);
  });
});
