/**
 * The dev server against Apache Curator 5 (Debian's libcurator-*-java, on ZooKeeper's Java client
 * 3.8): a small Java program (CuratorScenario.java, compiled here into a temp dir) takes an
 * InterProcessMutex from two clients in turn and runs a LeaderLatch of two participants where the
 * leader closes and the other takes over, then commits a transaction and one that fails as a
 * whole. Curator reads /zookeeper/config (EnsembleTracker),
 * creates with create2 and containers, and checks its watches at close (checkWatches): all served.
 * Skipped, saying why, when Curator's jars or a JDK are not installed.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { CURATOR_JARS as JARS, CURATOR_MISSING as MISSING, JAVA, JAVAC } from '../support/java.js';
import { runProcess, SCENARIO_DIR } from './external-process.js';

const RUN_MS = 90_000;

describe('dev server: Apache Curator', { skip: MISSING }, () => {
  let server: DevServer;
  let classes: string;
  const classpath = () => [classes, ...JARS].join(':');

  before(async () => {
    classes = mkdtempSync(path.join(tmpdir(), 'curator-scenario-'));
    const compiled = await runProcess(JAVAC, ['-d', classes, '-cp', JARS.join(':'), path.join(SCENARIO_DIR, 'CuratorScenario.java')], RUN_MS);
    assert.equal(compiled.code, 0, compiled.stderr);
    server = await DevServer.start({ port: 0 });
  });
  after(async () => {
    await server?.close();
    if (classes) rmSync(classes, { recursive: true, force: true });
  });

  it('InterProcessMutex from two clients in turn, a LeaderLatch hand-over, transactions', async () => {
    const root = `/curator-${randomUUID()}`;
    const run = await runProcess(JAVA, ['-XX:TieredStopAtLevel=1', '-cp', classpath(), 'CuratorScenario', server.connectString, root], RUN_MS);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.deepEqual(run.stdout.trim().split('\n'), [
      'connected 2',
      'mutex a holds',
      'mutex b waits',
      'mutex a released',
      'mutex b holds',
      'mutex b released',
      'mutex nodes left 0',
      'latch leader a participants 2',
      'latch leader b participants 1',
      'transaction 3 2',
      'failed transaction BADVERSION tx2 null',
      'done',
    ]);
    // Both Curator sessions closed with the program: the server holds none of them.
    assert.deepEqual(server.liveSessions(), []);
  });
});
