/**
 * The hand-over rehearsal: the election's own code runs hand-overs on a simulated ZooKeeper in
 * memory, once per process when `LeaderService` bootstraps with an election (option
 * `election.warmUpHandOver`), so that a process's first real hand-over runs compiled code. It must
 * really walk the hand-over path (a standby grant, a report, a resignation). (What it buys is
 * measured by the W4 benchmark, not here.)
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Test, type TestingModule } from '@nestjs/testing';
import { handOverRehearsal, rehearseHandOver } from '../../src/recipes/election/hand-over-rehearsal.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { sharedConnect, testRoot } from './election-cluster.js';
import { withTestDriver } from '../support/test-driver.js';

const silent = { log() {}, error() {}, warn() {}, debug() {}, verbose() {} };
const DIR = '/rehearsal/elections/hand-over';

describe('hand-over rehearsal', () => {
  let app: TestingModule | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('leads through standby grants: one listing per round (behind the create), none after the leader goes', async () => {
    const trace: string[] = [];
    await rehearseHandOver({ trace: (line) => trace.push(line) });
    const sent = (request: string) => trace.filter((line) => line.includes(`→ ${request}`)).length;
    assert.equal(sent(`getChildren ${DIR}`), 3, 'one listing per round: the one pipelined behind the participant\'s create');
    assert.equal(sent(`create ${DIR}/_c_`), 6, "per round, the leader's node and the participant's");
    // Per round, the leader's delete hands over, and the participant's delete resigns.
    assert.equal(trace.filter((line) => line.includes('→ delete') && line.includes(`${DIR}/_c_`)).length, 6);
    assert.equal(trace.filter((line) => line.includes(`watch deleted ${DIR}/_c_`)).length >= 3, true, "each grant followed the leader's node's deletion");
  });

  it('does not run when the module says warmUpHandOver: false', async () => {
    app = await Test.createTestingModule({
      imports: [ZkLockModule.forRoot(withTestDriver({ connect: sharedConnect(), root: testRoot(), election: { warmUpHandOver: false } }))],
    })
      .setLogger(silent)
      .compile();
    await app.init();
    assert.equal(handOverRehearsal(), undefined);
  });

  it("runs once per process, from the first bootstrap of a module with an election", async () => {
    app = await Test.createTestingModule({ imports: [ZkLockModule.forRoot(withTestDriver({ connect: sharedConnect(), root: testRoot(), election: {} }))] })
      .setLogger(silent)
      .compile();
    await app.init();
    const rehearsal = handOverRehearsal();
    assert.ok(rehearsal, 'started on bootstrap');
    await rehearsal;
    await app.close();
    app = await Test.createTestingModule({ imports: [ZkLockModule.forRoot(withTestDriver({ connect: sharedConnect(), root: testRoot(), election: {} }))] })
      .setLogger(silent)
      .compile();
    await app.init();
    assert.equal(handOverRehearsal(), rehearsal, 'not a second time');
  });
});
